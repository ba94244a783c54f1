#!/usr/bin/env node
// The players' page's Doom defense cards (assets/web) in Debian's Chromium, headless, against a real
// sightline-server serving the cards (with --defense-cards where the server has that flag) on a copy
// of tests/web/data/table.json (a Doom table, no battle) with one more seat, the pilgrims, whose
// wanderer stands in the east room where no marine sees it. The marines' page on a phone with touch,
// the invaders' on a laptop, the GM and the pilgrims over plain WebSockets. With real taps and
// clicks: the ghoul's cover ruling offers the scout's defense against it; the scout (no cover)
// reveals and uses its card at once; the medic (cover) reveals, discards and reveals another, then
// reveals again and keeps; each time what the panel draws is the host's view, the invaders' page (the
// attacker's seat) shows the same round, the pilgrims' frames nothing of it, and the deck's counts
// and the log follow. Actions the page never sends, sent over its own connection (another seat's
// figure, an attacker it cannot see, one no figure has) are refused in the host's words under the
// controls and change nothing; no frame the marines received names a figure they never saw; nothing
// overflows at 360x640 or 1280x800. Screenshots in the out folder.
//
//   node defense.test.js --server PATH --out DIR      (page.test.js runs it with its own arguments)
//
// Exit 0: passed; 77: skipped (no Chromium or no puppeteer-core); anything else: failed.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const {
  root, serverPath, outDir, driver, launch, phone, laptop, check, checkCount, sleep, startServer, openSeat, state, waitState, shot, checkFit, heapText, runMain, press, sendRaw, settle,
} = require('./support');

const d = driver('web defense');

// The seat's defense views as the host sent them, from its frames (a page's or a plain client's).
const parsed = (seat) => seat.frames.map((f) => JSON.parse(f));
const defenseFrames = (seat) => parsed(seat).filter((m) => m.type === 'defense');
const lastView = (seat) => defenseFrames(seat).pop().defense;
// The frames a seat received, the answers to its pings aside.
const told = (seat) => parsed(seat).filter((m) => m.type !== 'pong').length;
const refusalsSince = (seat, from) => seat.frames.slice(from).map((f) => JSON.parse(f)).filter((m) => m.type === 'refused');
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const boardFigure = (s, id) => ((s.board && s.board.figures) || []).find((f) => f.id === id);

// A finger's tap on a board point.
async function tap(seat, at) {
  await seat.page.bringToFront();
  const [x, y] = await seat.page.evaluate((p) => window.sightlineTable.toScreen(p[0], p[1]), at);
  await seat.cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y, id: 1 }] });
  await sleep(30);
  await seat.cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}
// The damage typed into its field, as a player does.
async function typeDamage(seat, text) {
  await press(seat, '#dc-damage');
  await seat.page.$eval('#dc-damage', (e) => e.select());
  await seat.page.keyboard.type(text);
}
// A seat over a plain WebSocket: every frame it receives.
function plainSeat(seat, name) {
  return new Promise((resolve, reject) => {
    const ws = new d.WebSocket(seat.ws.split('?')[0]);
    const frames = [];
    ws.on('open', () => ws.send(JSON.stringify({ type: 'join', seat: name, token: seat.token })));
    ws.on('message', (m) => {
      frames.push(String(m));
      if (frames.length === 1) resolve({ ws, frames });
    });
    ws.on('error', reject);
  });
}
async function until(test, what, timeout = 10000) {
  const end = Date.now() + timeout;
  while (Date.now() < end) {
    if (test()) return;
    await sleep(50);
  }
  check(false, what);
}
// What the panel shows of the round's card, read from the page itself.
const cardShown = (seat) => seat.page.evaluate(() => {
  const part = document.getElementById('defense-round-part');
  const stats = [...document.querySelectorAll('#defense-result .stat b')].map((b) => Number(b.textContent));
  return {
    visible: !part.hidden && part.getBoundingClientRect().height > 0,
    name: document.querySelector('#defense-card .cname').textContent,
    shields: Number(document.querySelector('#defense-card .shield').textContent),
    stats: document.getElementById('defense-result').hidden ? null : stats,
  };
});

async function main() {
  fs.mkdirSync(outDir, { recursive: true });
  // The page test's table, copied, with a third seat's figure where the marines never see it.
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-defense-'));
  const map = JSON.parse(fs.readFileSync(path.join(root, 'tests', 'web', 'data', 'table.json'), 'utf8'));
  for (const f of map.figures) if (f.image) f.image = path.relative(tmp, path.join(root, 'assets', 'tokens', path.basename(f.image)));
  map.figures.push({ id: 'wanderer', cell: [10, 6], side: 'pilgrims' });
  const mapPath = path.join(tmp, 'table.json');
  fs.writeFileSync(mapPath, JSON.stringify(map, null, 1));

  // The cards are served at a Doom table with no battle; a server that asks for them to be
  // (--defense-cards) is asked.
  const help = spawnSync(serverPath, ['--help'], { encoding: 'utf8' });
  const asked = /--defense-cards\b/.test(String(help.stdout)) ? ['--defense-cards'] : [];
  const { child, seats } = await startServer(mapPath, asked);
  const browser = await launch(d);
  try {
    check(seats.gm && seats.marines && seats.invaders && seats.pilgrims && seats.pilgrims.side === 'pilgrims',
      'the host gives the GM a seat and each side one', Object.keys(seats));
    const pageOf = (seat) => 'http://127.0.0.1:' + seats[seat].port + '/?seat=' + seat + '&token=' + seats[seat].token;
    const mar = await openSeat(browser, pageOf('marines'), phone, { sockets: true });
    mar.touch = true;
    const inv = await openSeat(browser, pageOf('invaders'), laptop);
    const gm = await plainSeat(seats.gm, 'gm');
    const pil = await plainSeat(seats.pilgrims, 'pilgrims');

    // [SECTION] Joined: each seat's view, the bar's Defense button, the board still in view

    let s = await waitState(mar, (x) => x.defense && x.defenseDrawn && x.drawn.figures.length > 0, 'the marines\' page gets its defense view');
    let t = await waitState(inv, (x) => x.defense && x.defenseDrawn && x.drawn.figures.length > 0, 'the invaders\' page gets theirs');
    await until(() => defenseFrames(gm).length > 0 && defenseFrames(pil).length > 0, 'the GM and the pilgrims get theirs');
    let mv = lastView(mar);
    check(same(s.defense, mv), 'the page holds the defense view it was sent last');
    check(defenseFrames(mar)[0] && parsed(mar).findIndex((m) => m.type === 'snapshot') < parsed(mar).findIndex((m) => m.type === 'defense') &&
      defenseFrames(mar)[0].game === 'doom', 'it came after the snapshot, for the game "doom"');
    check(mv.side === 'marines' && same(mv.decks.map((k) => k.id), ['marines']) && mv.round === null && same(mv.log, []),
      'the marines are sent their own deck alone, no round, an empty log', mv);
    check(same(lastView(gm).decks.map((k) => k.id).sort(), ['invaders', 'marines']) && lastView(gm).side === '*', 'the GM every deck', lastView(gm).decks);
    check(same(lastView(pil), { side: 'pilgrims', decks: [], round: null, log: [] }), 'the pilgrims no deck at all', lastView(pil));
    check(!s.defenseDrawn.open && s.drawn.figures.length === 3, 'the panel is closed: the phone shows the board');
    const bar = await mar.page.evaluate(() => [!document.getElementById('defense-toggle').hidden, document.getElementById('defense-toggle').textContent, document.getElementById('battle-toggle').hidden]);
    check(bar[0] && bar[1] === 'Defense' && bar[2], 'the bar offers Defense (and no Battle)', bar);
    const deck0 = mv.decks[0];
    check(deck0.draw === 20 && deck0.discard === 0, 'a fresh deck of 20 cards', deck0);

    // [SECTION] From the board: the ghoul's cover ruling offers the scout's defense against it

    await tap(mar, [4.5, 1.5]);
    s = await waitState(mar, (x) => x.ruling && x.ruling.defender === 'ghoul' && x.message, 'a tap on the ghoul asks its cover ruling');
    const offer = await mar.page.evaluate(() => { const b = document.getElementById('panel-defend'); return [b.hidden, b.textContent]; });
    check(!offer[0] && offer[1] === 'Defend scout against ghoul', 'the ruling\'s panel offers "Defend scout against ghoul"', offer);
    await shot(mar, 'defense-phone-ruling.png');
    await checkFit(mar, 'defense 360x640 ruling');
    await press(mar, '#panel-defend');
    s = await waitState(mar, (x) => x.defenseDrawn.open, 'a tap on it opens the Defense panel in the board\'s place');
    check(s.defenseDrawn.attacker === 'ghoul' && s.defenseDrawn.defender === 'scout', 'with the ghoul attacking and the scout defending picked', s.defenseDrawn);
    check(same(s.defenseDrawn.attackers, ['ghoul']) && same(s.defenseDrawn.defenders, ['scout', 'medic']),
      'it may be attacked by the ghoul (the one figure of another side it sees), and defends its scout or medic', [s.defenseDrawn.attackers, s.defenseDrawn.defenders]);
    check(!s.message && !s.ruling, 'the ruling\'s panel closed');
    const toggle = await mar.page.evaluate(() => [document.getElementById('defense-toggle').textContent, document.getElementById('stage').getBoundingClientRect().height]);
    check(toggle[0] === 'Board' && toggle[1] === 0, 'the bar\'s button now goes back to the board, which is out of the way', toggle);
    check(same(s.defenseDrawn.decks, mv.decks) && s.defenseDrawn.round === null && s.defenseDrawn.logLines === 0, 'the panel draws the deck, no round and no log line');

    // [SECTION] No cover: the scout's card is used at once

    await typeDamage(mar, '3');
    let sentAt = mar.sent.length;
    await press(mar, '#dc-reveal');
    s = await waitState(mar, (x) => x.defense.round && x.defense.round.defender === 'scout' && !x.defenseDrawn.pending, 'Reveal defense: the scout\'s round comes back');
    const sentActions = () => mar.sent.slice(sentAt).map((f) => JSON.parse(f)).filter((x) => x.type === 'defense_action').map((x) => x.action);
    check(same(sentActions(), [{ do: 'reveal', attacker: 'ghoul', defender: 'scout', damage: 3 }]), 'the page sent the reveal as picked', sentActions());
    mv = lastView(mar);
    let r = mv.round;
    check(r.attacker === 'ghoul' && r.cover === false && r.phase === 'done' && r.can_discard === false && r.result && r.result.rerolled === false,
      'the host ruled no cover and used the card at once', r);
    check(r.result.card === r.card.name && r.result.blocked === Math.min(3, r.card.shields) && r.result.through === 3 - r.result.blocked,
      'it blocks its shields\' worth of the 3 damage', r);
    let dr = s.defenseDrawn.round;
    check(dr && dr.phase === 'done' && same(dr.card, r.card) && dr.result.blocked === r.result.blocked && dr.result.through === r.result.through && !dr.decides,
      'the panel draws the host\'s card, blocked and through', [dr, r]);
    let shown = await cardShown(mar);
    check(shown.visible && shown.name === r.card.name && shown.shields === r.card.shields && same(shown.stats, [3, r.result.blocked, r.result.through]),
      'and the card on the screen is that card, with damage, blocked and through', shown);
    check(mv.decks[0].draw === 19 && mv.decks[0].discard === 1 && same(s.defenseDrawn.decks, mv.decks), 'the deck: 19 to draw, 1 discarded, drawn so', s.defenseDrawn.decks);
    check(mv.log.length === 2 && s.defenseDrawn.logLines === 2 && mv.log.every((l) => l.includes('scout') && l.includes('ghoul')) && mv.log[1].includes(r.card.name),
      'the log: the card revealed and used', mv.log);
    await shot(mar, 'defense-phone-used.png');
    await checkFit(mar, 'defense 360x640 card used');

    // The invaders' page (the attacker's seat): the same round, news on the bar's button.
    t = await waitState(inv, (x) => x.defense.round && x.defense.round.defender === 'scout', 'the invaders\' page gets the scout\'s round (their ghoul attacked)');
    check(same(t.defense.round, r) && same(t.defense.log, mv.log), 'the same round and log lines as the marines\'', t.defense.round);
    check(same(t.defense.decks, [{ id: 'invaders', name: t.defense.decks[0].name, draw: 20, discard: 0 }]), 'their own deck untouched, and no count of the marines\'', t.defense.decks);
    const news = await inv.page.evaluate(() => document.getElementById('defense-toggle').classList.contains('news'));
    check(news && !t.defenseDrawn.open, 'the panel closed, the bar\'s button marks the news');
    await press(inv, '#defense-toggle');
    t = await waitState(inv, (x) => x.defenseDrawn.open && x.defenseDrawn.round, 'a click opens the panel beside the board');
    check(same(t.defenseDrawn.round.card, r.card) && t.defenseDrawn.round.result.through === r.result.through && !t.defenseDrawn.round.decides, 'drawing the same card', t.defenseDrawn.round);
    const others = t.board.figures.filter((f) => f.side !== 'invaders').map((f) => f.id);
    check(same(t.defenseDrawn.attackers, others) && others.includes('scout') && others.includes('medic') && same(t.defenseDrawn.defenders, ['ghoul', 'lurker']),
      'their pickers: the figures of other sides they see, their own figures', [t.defenseDrawn.attackers, t.defenseDrawn.defenders]);
    check(same(lastView(gm).round, r), 'the GM\'s view holds the same round');
    check(defenseFrames(pil).length === 1, 'the pilgrims (neither side of it) were sent nothing of it');

    // [SECTION] Cover: the medic's card, discarded for another

    await press(mar, '#dc-defenders button[data-id="medic"]');
    s = await waitState(mar, (x) => x.defenseDrawn.defender === 'medic' && x.defenseDrawn.attacker === 'ghoul', 'a tap picks the medic to defend');
    await typeDamage(mar, '1000');
    sentAt = mar.sent.length;
    await press(mar, '#dc-reveal');
    s = await waitState(mar, (x) => x.defenseDrawn.refusal, 'a damage over 999 is refused on the page');
    check(s.defenseDrawn.refusal === 'The damage is a whole number from 0 to 999.' && sentActions().length === 0, 'saying why, and nothing is sent', s.defenseDrawn.refusal);
    await typeDamage(mar, '2');
    let before = { deck: lastView(mar).decks[0], log: lastView(mar).log.length };
    await press(mar, '#dc-reveal');
    s = await waitState(mar, (x) => x.defense.round && x.defense.round.defender === 'medic' && !x.defenseDrawn.pending, 'Reveal defense for the medic');
    check(same(sentActions(), [{ do: 'reveal', attacker: 'ghoul', defender: 'medic', damage: 2 }]) && !s.defenseDrawn.refusal, 'sent as picked, the refusal gone', sentActions());
    mv = lastView(mar);
    r = mv.round;
    check(r.cover === true && r.phase === 'revealed' && r.can_discard === true && r.result === null, 'the host ruled cover: the card is revealed, to keep or discard', r);
    dr = s.defenseDrawn.round;
    check(dr.phase === 'revealed' && same(dr.card, r.card) && dr.decides && dr.result === null, 'the panel draws the card revealed, the choice the marines\'', dr);
    check(s.defenseDrawn.controls['dc-discard'] === true && s.defenseDrawn.controls['dc-keep'] === true && s.defenseDrawn.controls['dc-reveal'] === false,
      'offering "Discard and reveal another" and "Keep" (and no new reveal until then)', s.defenseDrawn.controls);
    shown = await cardShown(mar);
    check(shown.visible && shown.name === r.card.name && shown.shields === r.card.shields && shown.stats === null, 'the card on the screen, no result yet', shown);
    check(mv.decks[0].draw === before.deck.draw - 1 && mv.decks[0].discard === before.deck.discard && mv.log.length === before.log + 1,
      'one card drawn and held, one log line', [mv.decks[0], mv.log.slice(before.log)]);
    const firstCard = r.card.name;
    t = await waitState(inv, (x) => x.defense.round && x.defense.round.defender === 'medic', 'the invaders\' page shows the medic\'s card revealed');
    check(same(t.defense.round, r) && t.defenseDrawn.round.phase === 'revealed' && !t.defenseDrawn.round.decides &&
      t.defenseDrawn.controls['dc-discard'] === undefined && t.defenseDrawn.controls['dc-keep'] === undefined && /^Waiting for medic/.test(t.defenseDrawn.round.say),
      'the same card, waiting for the marines\' choice, with no choice of theirs', t.defenseDrawn);
    await shot(mar, 'defense-phone-revealed.png');
    await checkFit(mar, 'defense 360x640 card revealed');
    await shot(inv, 'defense-laptop-revealed.png');
    await checkFit(inv, 'defense 1280x800 card revealed');

    before = { deck: mv.decks[0], log: mv.log.length };
    sentAt = mar.sent.length;
    await press(mar, '#dc-discard');
    s = await waitState(mar, (x) => x.defense.round && x.defense.round.phase === 'done' && !x.defenseDrawn.pending, 'Discard and reveal another: the round is done');
    check(same(sentActions(), [{ do: 'discard', defender: 'medic' }]), 'the page sent the discard', sentActions());
    mv = lastView(mar);
    r = mv.round;
    check(r.result.rerolled === true && r.result.card === r.card.name && r.result.blocked === Math.min(2, r.result.shields) && r.result.through === 2 - r.result.blocked,
      'the second card is used', r);
    dr = s.defenseDrawn.round;
    check(same(dr.card, { name: r.result.card, shields: r.result.shields }) && dr.result.rerolled && dr.result.through === r.result.through && !dr.decides,
      'the panel draws it, the choice gone', dr);
    shown = await cardShown(mar);
    check(shown.name === r.result.card && same(shown.stats, [2, r.result.blocked, r.result.through]), 'on the screen too', shown);
    check(mv.decks[0].draw === before.deck.draw - 1 && mv.decks[0].discard === before.deck.discard + 2 && same(s.defenseDrawn.decks, mv.decks),
      'the deck: one more drawn, both cards discarded', mv.decks[0]);
    check(mv.log.length === before.log + 2 && mv.log[before.log].includes(firstCard) && mv.log[before.log + 1].includes(r.result.card) && s.defenseDrawn.logLines === mv.log.length,
      'the log: the first card discarded, the second used', mv.log.slice(before.log));
    t = await waitState(inv, (x) => x.defense.round && x.defense.round.phase === 'done' && x.defense.round.defender === 'medic', 'the invaders\' page follows');
    check(same(t.defense.round, r) && same(t.defenseDrawn.round.card, dr.card), 'with the same card used', t.defenseDrawn.round);

    // [SECTION] Cover again: this time the card is kept

    before = { deck: mv.decks[0], log: mv.log.length };
    await press(mar, '#dc-reveal');
    s = await waitState(mar, (x) => x.defense.round && x.defense.round.phase === 'revealed' && !x.defenseDrawn.pending, 'the medic reveals again');
    const kept = lastView(mar).round.card;
    await press(mar, '#dc-keep');
    s = await waitState(mar, (x) => x.defense.round && x.defense.round.phase === 'done' && !x.defenseDrawn.pending, 'Keep: the round is done');
    mv = lastView(mar);
    r = mv.round;
    check(r.result.rerolled === false && r.result.card === kept.name && r.result.shields === kept.shields && same(s.defenseDrawn.round.card, kept),
      'with the card revealed used', [kept, r.result]);
    check(mv.decks[0].draw === before.deck.draw - 1 && mv.decks[0].discard === before.deck.discard + 1 && mv.log.length === before.log + 2,
      'the deck: one drawn and discarded; two log lines', [mv.decks[0], mv.log.slice(before.log)]);
    t = await waitState(inv, (x) => same(x.defense.round, r), 'the invaders\' page follows');
    check(same(t.defense.log, mv.log) && t.defenseDrawn.logLines === mv.log.length, 'and its log is the marines\'');
    // The log shows its newest lines, though its first ones came while the panel was being laid out.
    t = await waitState(inv, (x) => x.defenseDrawn.logScroll && x.defenseDrawn.logScroll.shown > 0, 'the invaders\' log is laid out');
    const scroll = t.defenseDrawn.logScroll;
    check(scroll.top + scroll.shown >= scroll.height - 2, 'the invaders\' log shows its newest lines', scroll);
    const gmView = lastView(gm);
    check(same(gmView.round, r) && same(gmView.log, mv.log) && same(gmView.decks.find((k) => k.id === 'marines'), mv.decks[0]), 'the GM\'s view: the same round, log and deck');
    check(defenseFrames(pil).length === 1, 'the pilgrims were still sent nothing');

    // [SECTION] Nothing the marines may not know; nothing of it to the pilgrims
    // (Before the crafted actions below, whose refusals echo the ids the page sent.)

    const mText = mar.frames.join('\n');
    for (const id of ['lurker', 'wanderer']) {
      check(!mText.includes(id), 'no frame the marines received names "' + id + '"');
      check(!JSON.stringify(await state(mar)).includes(id), 'nothing the marines\' page holds names "' + id + '"');
    }
    const heap = await heapText(mar);
    check(heap.length > 100000 && heap.includes('ghoul') && !heap.includes('lurker') && !heap.includes('wanderer'), 'nor anything in its memory (while it holds "ghoul")');
    const pText = pil.frames.join('\n');
    const cards = [...new Set(defenseFrames(gm).flatMap((m) => (m.defense.round ? [m.defense.round.card.name] : [])))];
    check(!/scout|medic/.test(pText) && cards.every((c) => !pText.includes('"' + c + '"')) && lastView(pil).round === null,
      'no frame the pilgrims received names the marines\' figures or a card revealed', cards);

    // [SECTION] What the page never sends, sent over its connection: refused, nothing changed

    await settle([mar, inv, gm, pil]);
    const beforeRaw = { at: mar.frames.length, mar: told(mar), inv: told(inv), gm: told(gm), pil: told(pil), rev: s.defenseRev };
    const crafted = [
      [{ do: 'reveal', attacker: 'scout', defender: 'ghoul', damage: 1 }, 'You reveal the defense of your own figures only.', 'the invaders\' ghoul\'s defense'],
      [{ do: 'reveal', attacker: 'ghoul', defender: 'wanderer', damage: 1 }, 'No figure "wanderer".', 'the pilgrims\' wanderer\'s, which the marines do not see'],
      [{ do: 'reveal', attacker: 'lurker', defender: 'medic', damage: 1 }, 'No figure "lurker".', 'against the lurker, which the marines do not see'],
      [{ do: 'reveal', attacker: 'nobody-here', defender: 'medic', damage: 1 }, 'No figure "nobody-here".', 'against an id no figure has'],
      [{ do: 'keep' }, null, 'a keep with no card revealed'],
    ];
    for (const [action] of crafted) await sendRaw(mar, { type: 'defense_action', action: action });
    s = await waitState(mar, (x) => refusalsSince(mar, beforeRaw.at).length === crafted.length && x.defenseDrawn.refusal, 'the ' + crafted.length + ' crafted actions are refused');
    const refused = refusalsSince(mar, beforeRaw.at);
    crafted.forEach(([, reason, what], i) => check(refused[i].to === 'defense_action' && (reason === null ? refused[i].reason.length > 0 : refused[i].reason === reason),
      'refused: ' + what + (reason ? ' ("' + reason + '")' : ''), refused[i]));
    check(refused[2].reason === refused[3].reason.split('nobody-here').join('lurker'), 'an attacker the marines cannot see in the words of one no figure has', [refused[2].reason, refused[3].reason]);
    check(s.defenseDrawn.refusal === refused[refused.length - 1].reason, 'the panel shows the host\'s reason', s.defenseDrawn.refusal);
    const refusalShown = await mar.page.evaluate(() => {
      const e = document.getElementById('defense-refusal');
      return { text: e.textContent, visible: !e.hidden && e.getBoundingClientRect().height > 0, under: document.getElementById('defense-reveal').contains(e) &&
        !!(document.getElementById('dc-reveal').compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING), colour: getComputedStyle(e).color };
    });
    check(refusalShown.visible && refusalShown.under && refusalShown.text === refused[refused.length - 1].reason && refusalShown.colour === 'rgb(255, 123, 114)',
      'under the controls, in the refusals\' red', refusalShown);
    await sleep(400);
    check(told(mar) === beforeRaw.mar + crafted.length && told(inv) === beforeRaw.inv && told(gm) === beforeRaw.gm && told(pil) === beforeRaw.pil &&
      (await state(mar)).defenseRev === beforeRaw.rev, 'nothing changed: no view to anyone',
      [told(mar) - beforeRaw.mar, told(inv) - beforeRaw.inv, told(gm) - beforeRaw.gm, told(pil) - beforeRaw.pil]);
    check(same(lastView(gm), gmView), 'the GM\'s view is as it was');
    await mar.page.$eval('#defense-refusal', (e) => e.scrollIntoView({ block: 'center' }));
    await shot(mar, 'defense-phone-refused.png');

    // [SECTION] The bar's button: the board and the defense

    await mar.page.$eval('#defense', (e) => { e.scrollTop = e.scrollHeight; });
    await shot(mar, 'defense-phone-log.png');
    await mar.page.$eval('#defense', (e) => { e.scrollTop = 0; });
    await checkFit(mar, 'defense 360x640 after the refusals');
    await press(mar, '#defense-toggle');
    s = await waitState(mar, (x) => !x.defenseDrawn.open, 'on the phone the bar\'s button goes back to the board');
    const board = await mar.page.evaluate(() => { const b = document.getElementById('board').getBoundingClientRect(); return [b.width, b.height, document.getElementById('defense-toggle').textContent]; });
    check(board[0] >= 300 && board[1] >= 400 && board[2] === 'Defense' && s.view.scale > 4, 'the board fills the screen again, fitted, the button says Defense', board);
    await checkFit(mar, 'defense 360x640 board');
    await shot(inv, 'defense-laptop.png');

    // The GM reveals the medic's defense against the ghoul: the card waits for the marines' choice,
    // so their page shows it by itself, and a tap on Keep uses it.
    const gmAt = gm.frames.length;
    gm.ws.send(JSON.stringify({ type: 'defense_action', action: { do: 'reveal', attacker: 'ghoul', defender: 'medic', damage: 4 } }));
    s = await waitState(mar, (x) => x.defenseDrawn.open && x.defense.round && x.defense.round.damage_in === 4 && x.defense.round.phase === 'revealed',
      'the GM\'s reveal for the medic opens the marines\' panel on its card');
    check(s.defenseDrawn.round.decides && s.defenseDrawn.controls['dc-keep'] === true && !s.defenseDrawn.refusal, 'the choice is theirs; the old refusal has gone', s.defenseDrawn);
    check(!parsed(gm).slice(gmAt).some((m) => m.type === 'refused'), '(the GM was not refused)');
    await press(mar, '#dc-keep');
    s = await waitState(mar, (x) => x.defense.round.phase === 'done' && x.defense.round.damage_in === 4, 'Keep: used');
    check(same(s.defenseDrawn.round.card, lastView(gm).round.card) && s.defenseDrawn.round.result.blocked === Math.min(4, s.defenseDrawn.round.card.shields),
      'the card kept blocks its shields\' worth', s.defenseDrawn.round);

    // A phone that reloads the page with a long log already kept, its panel opened afterwards: the
    // log shows its newest lines (it was filled while the panel was hidden, with no height to scroll).
    await press(mar, '#defense-toggle');
    await waitState(mar, (x) => !x.defenseDrawn.open, 'the marines\' phone back on its board');
    await mar.page.reload();
    await waitState(mar, (x) => x.connection === 'connected' && x.defense && x.defenseDrawn && x.defenseDrawn.logLines > 0, 'the reloaded phone has the log');
    await press(mar, '#defense-toggle');
    s = await waitState(mar, (x) => x.defenseDrawn.open && x.defenseDrawn.logScroll && x.defenseDrawn.logScroll.shown > 0, 'its panel opened');
    check(s.defenseDrawn.logScroll.height > s.defenseDrawn.logScroll.shown, '(the log is longer than its box)', s.defenseDrawn.logScroll);
    check(s.defenseDrawn.logScroll.top + s.defenseDrawn.logScroll.shown >= s.defenseDrawn.logScroll.height - 2, 'the log shows its newest lines', s.defenseDrawn.logScroll);
    await shot(mar, 'defense-phone-log-reloaded.png');

    // The GM moves the medic behind the crates, where the ghoul (which the scout still sees) has no
    // line of sight to it: the panel asks the host about the pair quietly and holds Reveal back,
    // saying why, rather than offering an attack the host would refuse.
    const gmRev = parsed(gm).filter((m) => (m.type === 'snapshot' || m.type === 'patch') && typeof m.rev === 'number').pop().rev;
    gm.ws.send(JSON.stringify({ type: 'move', figure: 'medic', to: [4, 7], rev: gmRev }));
    s = await waitState(mar, (x) => boardFigure(x, 'medic') && boardFigure(x, 'medic').cell.join() === '4,7', 'the marines\' page has the medic behind the crates');
    await press(mar, '#dc-defenders button[data-id="medic"]');
    // (The ghoul, the one enemy the marines see, is picked as the attacker by itself.)
    s = await waitState(mar, (x) => x.defenseDrawn.defender === 'medic' && x.defenseDrawn.attacker === 'ghoul' && x.defenseDrawn.controls['dc-reveal'] === false &&
      /no line of sight/.test(x.defenseDrawn.why || ''), 'with no line of sight from the ghoul to the medic, Reveal waits and says why');
    check(s.defenseDrawn.why === 'ghoul has no line of sight to medic: no attack, no defense.', 'in the panel\'s words', s.defenseDrawn.why);
    check(!s.message && !s.ruling, 'the question was not shown as a ruling', [s.message, s.ruling]);
    await press(mar, '#dc-defenders button[data-id="scout"]');
    s = await waitState(mar, (x) => x.defenseDrawn.defender === 'scout' && x.defenseDrawn.controls['dc-reveal'] === true, 'the scout, which the ghoul sees: Reveal is offered');

    for (const p of [mar, inv]) check(p.errors.length === 0, 'no error in the page\'s console', p.errors);
    for (const p of [mar, inv]) {
      const origin = new URL(p.page.url()).origin;
      check(p.requests.every((u) => u.startsWith(origin) || u.startsWith('data:')), 'the page fetches nothing but from its host', p.requests.filter((u) => !u.startsWith(origin)));
    }
    gm.ws.close();
    pil.ws.close();
  } finally {
    await browser.close().catch(() => {});
    child.kill('SIGTERM');
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log('web defense: all ' + checkCount() + ' checks passed; screenshots in ' + outDir);
}

runMain('defense', 90, main);
