#!/usr/bin/env node
// The players' page's MazeWorld battle panel (assets/web) in Debian's Chromium, headless, against a
// real sightline-server serving battles/mazes-warehouse.json beside maps/demo.json (a copy in a
// temporary folder, since the host writes every change back to the file, with one more creature
// of the maze's, "nightjar", joining in stealth). The contestants' page on a phone with touch, the
// GM's and the maze's on a laptop. What the panel draws against what each seat was sent; real
// taps and clicks on its controls (the GM's Next turn, Fire at a visible enemy, Move, a refused Take
// cover, then a Take cover that stands) and what they change for every seat; actions the page never
// sends (another team's creature, dice) sent over its own connection and refused, the reason shown
// beside the controls; no frame the contestants' page received naming a creature of the maze that
// the GM's view shows in stealth the whole time, nor what they may not know of the others; nothing
// overflowing at 360x640 or 1280x800. Screenshots in the out folder.
//
//   node battle.test.js --server PATH --out DIR      (page.test.js runs it with its own arguments)
//
// Exit 0: passed; 77: skipped (no Chromium or no puppeteer-core); anything else: failed.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const {
  root, outDir, driver, launch, phone, laptop, check, checkCount, sleep, startServer, openSeat, state, waitState, shot, checkFit, heapText, runMain, press, sendRaw, settle,
} = require('./support');

const d = driver('web battle');

// The seat's battle view as the host last sent it, and every one it was sent, from its frames.
const battleFrames = (seat) => seat.frames.map((f) => JSON.parse(f)).filter((m) => m.type === 'battle');
const lastView = (seat) => battleFrames(seat).pop().battle;
const tokenOf = (s, id) => s.battleDrawn.tokens.find((t) => t.id === id);
const sideOf = (s, id) => (tokenOf(s, id) || {}).side;
const ids = (list) => list.map((c) => c.id);
const sameSet = (a, b) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

// The refusals the seat's page received after the first `from` frames.
const refusalsSince = (seat, from) => seat.frames.slice(from).map((f) => JSON.parse(f)).filter((m) => m.type === 'refused');
// The frames a page received, the answers to its pings aside.
const told = (seat) => seat.frames.filter((f) => JSON.parse(f).type !== 'pong').length;

async function main() {
  fs.mkdirSync(outDir, { recursive: true });
  // The battle, copied: the host writes every change back to its file. One more creature of the
  // maze's joins in stealth on Side 2 (an event after the commitment, as the app's Join does).
  const shipped = path.join(root, 'battles', 'mazes-warehouse.json');
  const shippedText = fs.readFileSync(shipped, 'utf8');
  const battle = JSON.parse(shippedText);
  battle.events.push({ do: 'join', combatant: { id: 'nightjar', team: 'maze', side: 2, agility: 0, initiative: 1, stealth: true } });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-battle-'));
  const battlePath = path.join(tmp, 'mazes-warehouse.json');
  fs.writeFileSync(battlePath, JSON.stringify(battle, null, 1));

  const { child, seats } = await startServer(path.join(root, 'maps', 'demo.json'), ['--battle', battlePath]);
  const browser = await launch(d);
  try {
    check(seats.gm && seats.gm.side === '*' && seats.contestants && seats.contestants.side === 'contestants' && seats.maze && seats.maze.side === 'maze',
      'the host gives the GM a seat and each team of the battle one, named after it', Object.keys(seats));
    const pageOf = (seat) => 'http://127.0.0.1:' + seats[seat].port + '/?seat=' + seat + '&token=' + seats[seat].token;
    const c = await openSeat(browser, pageOf('contestants'), phone, { sockets: true });
    c.touch = true;
    const gm = await openSeat(browser, pageOf('gm'), laptop);
    const m = await openSeat(browser, pageOf('maze'), laptop);

    // [SECTION] What the panel draws

    let s = await waitState(c, (x) => x.battle && x.battleDrawn && x.battleDrawn.open, 'the contestants\' page gets its battle and opens the panel');
    let g = await waitState(gm, (x) => x.battle && x.battleDrawn && x.battleDrawn.open, 'the GM\'s page gets the battle');
    let z = await waitState(m, (x) => x.battle && x.battleDrawn && x.battleDrawn.open, 'the maze\'s page gets the battle');
    let cv = lastView(c), gv = lastView(gm), mv = lastView(m);
    check(JSON.stringify(s.battle) === JSON.stringify(cv), 'the page holds the battle view it was sent last');
    check(cv.team === 'contestants' && gv.team === '*' && mv.team === 'maze', 'each seat is sent its team\'s view (the GM\'s "*")', [cv.team, gv.team, mv.team]);
    const nightjar = gv.combatants.find((x) => x.id === 'nightjar');
    check(nightjar && nightjar.stealth === true && nightjar.team === 'maze', 'the GM\'s view holds the maze\'s nightjar, in stealth', nightjar);
    check(s.battleDrawn.turn === cv.turn && s.battleDrawn.turnText.startsWith('Turn ' + cv.turn + ' · ' + cv.variant),
      'the panel shows the turn and the variant', s.battleDrawn.turnText);
    check(s.battleDrawn.sides.map((x) => x.side).join() === '1,2,3,4', 'it draws the four Sides');
    for (const [seat, st, view] of [['contestants', s, cv], ['GM', g, gv], ['maze', z, mv]]) {
      for (const side of view.sides) {
        const drawn = st.battleDrawn.sides[side.side - 1];
        const want = side.cover === null ? 'unknown' : side.cover.length === 0 ? 'none' : side.cover.map((p) => p.name + ' ' + p.hp_left + '/' + p.hp).join();
        const got = typeof drawn.cover === 'string' ? drawn.cover : drawn.cover.map((p) => p.name + ' ' + p.hp_left + '/' + p.hp).join();
        check(got === want, seat + ': Side ' + side.side + '\'s cover is drawn as sent (' + want + ')', drawn);
        check(sameSet(drawn.tokens, view.combatants.filter((x) => x.side === side.side).map((x) => x.id)),
          seat + ': Side ' + side.side + ' holds the tokens of the creatures on it', drawn.tokens);
      }
    }
    check(s.battleDrawn.sides[1].cover === 'unknown' && s.battleDrawn.sides[3].cover === 'unknown' &&
      Array.isArray(g.battleDrawn.sides[1].cover) && Array.isArray(g.battleDrawn.sides[3].cover),
    'the cover of Sides 2 and 4, rolled in private, is "not yet seen" by the contestants and shown to the GM');
    const cover2 = await c.page.evaluate(() => document.querySelector('#battle-sides .bside[data-side="2"] .cover').textContent);
    check(cover2 === 'cover not yet seen', 'and the page says so', cover2);
    check(sameSet(ids(cv.combatants), ['kestrel', 'dune', 'warden', 'husk']) && sameSet(ids(gv.combatants), ['kestrel', 'dune', 'warden', 'husk', 'nightjar']),
      'the contestants see four creatures, the GM five', [ids(cv.combatants), ids(gv.combatants)]);
    check(tokenOf(s, 'kestrel').own && tokenOf(s, 'dune').own && !tokenOf(s, 'warden').own && !tokenOf(s, 'husk').own, 'the contestants\' own tokens are told apart');
    const ownStyle = await c.page.evaluate(() => [...document.querySelectorAll('#battle-sides button.token')].map((t) => [t.dataset.id, getComputedStyle(t).borderTopColor]));
    check(ownStyle.every(([id, colour]) => (['kestrel', 'dune'].includes(id)) === (colour === 'rgb(255, 255, 255)')), 'and ringed in white', ownStyle);
    check(tokenOf(s, 'kestrel').badges === 'CE' && tokenOf(s, 'dune').badges === 'CH' && tokenOf(s, 'husk').badges === 'CE' && tokenOf(s, 'warden').badges === '',
      'the badges say who is behind cover, hidden or exposed', s.battleDrawn.tokens.map((t) => t.id + ':' + t.badges));
    check(tokenOf(z, 'nightjar') && tokenOf(z, 'nightjar').own && tokenOf(z, 'nightjar').badges === 'S', 'the maze\'s page draws its nightjar with S (in stealth)', tokenOf(z, 'nightjar'));
    check(JSON.stringify(s.battleDrawn.order) === JSON.stringify(cv.order) && s.battleDrawn.next === cv.next && !cv.order.includes('nightjar') && gv.order[0] === 'nightjar',
      'the turn order as the contestants may know it, without the nightjar that goes first', [cv.order, gv.order]);
    const nextMarked = await c.page.evaluate(() => [...document.querySelectorAll('#battle-order li.next')].map((li) => li.textContent));
    check(nextMarked.length === 1 && nextMarked[0] === cv.next, 'the next one is marked', nextMarked);
    check(s.battleDrawn.logLines === cv.log.length && g.battleDrawn.logLines === gv.log.length && z.battleDrawn.logLines === mv.log.length,
      'the log shows every line the seat was sent', [s.battleDrawn.logLines, cv.log.length, gv.log.length]);
    check(gv.log.some((l) => /nightjar \(maze\) joins/.test(l)) && !cv.log.some((l) => /nightjar/.test(l)), 'the GM\'s holds the nightjar joining, the contestants\' not');
    const logEnd = await c.page.evaluate(() => { const l = document.getElementById('battle-log'); return [l.scrollHeight > l.clientHeight, l.scrollHeight - l.scrollTop - l.clientHeight]; });
    check(logEnd[0] && logEnd[1] < 2, 'the log scrolls, its newest line in view', logEnd);
    check(sameSet(s.battleDrawn.actors, ['kestrel', 'dune']) && sameSet(z.battleDrawn.actors, ['warden', 'husk', 'nightjar']) &&
      sameSet(g.battleDrawn.actors, ids(gv.combatants)), 'each seat acts for its own creatures, the GM for every one', [s.battleDrawn.actors, z.battleDrawn.actors, g.battleDrawn.actors]);
    check(s.battleDrawn.controls['bc-cover'] === false && s.battleDrawn.controls['bc-move-2'] && s.battleDrawn.controls['bc-move-1'] === undefined &&
      s.battleDrawn.controls['bc-bullet'] && !s.battleDrawn.controls['bc-fire-go'],
    'the controls: move to the other Sides, a bullet for a firearm, Fire waiting for a target; not take cover, behind it already', s.battleDrawn.controls);
    check(s.battleDrawn.note === 'dune is behind cover already; Hidden, it fires once Exposed (switching takes its turn).', 'and the panel says why, and why it does not fire', s.battleDrawn.note);
    const targetsOff = await c.page.evaluate(() => { const t = [...document.querySelectorAll('#bc-targets button')]; return t.length > 0 && t.every((b) => b.disabled); });
    check(targetsOff, 'dune, Hidden, is offered no target to fire at (the host would refuse a Hidden creature\'s shot)');
    check(s.battleDrawn.controls['battle-next'] === undefined && g.battleDrawn.controls['battle-next'] === true, 'Next turn is the GM\'s alone');
    check(s.battleDrawn.actor === cv.next && cv.next === 'dune' && s.battleDrawn.controls['bc-hidden'] === false && s.battleDrawn.controls['bc-exposed'] === true,
      'the controls are first for the next of its own (dune, Hidden behind cover: it may turn Exposed)', [s.battleDrawn.actor, s.battleDrawn.controls]);
    await shot(c, 'battle-phone.png');
    const hintText = await c.page.$eval('#hint', (e) => e.textContent);
    check(/^None of your figures is on this board\./.test(hintText), 'the contestants, with no figure on the board, are not told to drag one', hintText);
    await shot(gm, 'battle-gm-laptop.png');
    await shot(m, 'battle-maze-laptop.png');
    await checkFit(c, 'battle 360x640');
    await checkFit(gm, 'battle 1280x800 (GM)');
    await checkFit(m, 'battle 1280x800 (maze)');

    // [SECTION] The controls, pressed

    // The GM's Next turn: a new turn for everyone.
    const turn0 = cv.turn;
    let before = { c: cv.log.length, m: mv.log.length };
    await press(gm, '#battle-next');
    s = await waitState(c, (x) => x.battle.turn === turn0 + 1, 'the GM\'s Next turn starts turn ' + (turn0 + 1) + ' on the contestants\' page');
    z = await waitState(m, (x) => x.battle.turn === turn0 + 1, 'and on the maze\'s');
    check(s.battle.log.length === before.c + 1 && /turn \d+ begins/.test(s.battle.log[s.battle.log.length - 1]), 'the log says so', s.battle.log.slice(-1));
    check(s.battleDrawn.logLines === s.battle.log.length && s.battleDrawn.turnText.startsWith('Turn ' + (turn0 + 1)), 'the panel draws it');
    check(s.battle.combatants.every((x) => !x.turn_over), 'everyone\'s turn is to come', s.battle.combatants.map((x) => [x.id, x.turn_over]));

    // kestrel fires at warden, a visible enemy on its Side: picked with taps, the damage typed in.
    await press(c, '#battle-actors button[data-id="kestrel"]');
    s = await waitState(c, (x) => x.battleDrawn.actor === 'kestrel', 'a tap picks kestrel to act for');
    check(sameSet(s.battleDrawn.targets.filter((t) => t.startsWith('c:')), ['c:warden', 'c:husk']),
      'it may fire at the maze\'s creatures it sees, not the nightjar', s.battleDrawn.targets);
    check(s.battleDrawn.targets.includes('cover:1:') && s.battleDrawn.targets.includes('cover:3:') && !s.battleDrawn.targets.some((t) => /^cover:[24]:/.test(t)),
      'and at the cover of the Sides it was shown', s.battleDrawn.targets);
    await press(c, '#bc-targets button[data-target="c:warden"]');
    s = await waitState(c, (x) => x.battleDrawn.target === 'c:warden' && x.battleDrawn.controls['bc-fire-go'], 'a tap picks warden as the target and Fire is ready');
    check(tokenOf(s, 'warden').target, 'warden\'s token is marked as the target');
    await c.page.select('#bc-weapon', 'melee');
    s = await waitState(c, (x) => x.battleDrawn.controls['bc-bullet'] === false, 'a melee weapon takes no bullet');
    await c.page.select('#bc-weapon', 'firearm');
    s = await waitState(c, (x) => x.battleDrawn.controls['bc-bullet'] === true, 'a firearm does');
    await c.page.select('#bc-bullet', 'FMJ');
    await press(c, '#bc-damage');
    await c.page.$eval('#bc-damage', (e) => e.select());
    await c.page.keyboard.type('12');
    const sentBefore = c.sent.length;
    before = { c: s.battle.log.length, m: z.battle.log.length, gm: lastView(gm).log.length };
    await press(c, '#bc-fire-go');
    s = await waitState(c, (x) => x.battle.log.length > before.c, 'Fire: the contestants\' log grows');
    const fired = c.sent.slice(sentBefore).map((f) => JSON.parse(f)).filter((x) => x.type === 'battle_action');
    check(fired.length === 1 && JSON.stringify(fired[0].action) === JSON.stringify({ do: 'fire', who: 'kestrel', at: 'warden', weapon: 'firearm', damage: 12, bullet: 'FMJ' }),
      'the page sent the fire event as picked, and no dice', fired);
    let line = s.battle.log[s.battle.log.length - 1];
    check(/^\[T\d+\] kestrel hits warden .*firearm for 12/.test(line), 'the new line is kestrel\'s shot at warden', line);
    check(s.battleDrawn.logLines === s.battle.log.length && tokenOf(s, 'kestrel').spent, 'the panel draws the line, and kestrel\'s turn as over', tokenOf(s, 'kestrel'));
    const newest = await c.page.evaluate(() => { const l = document.getElementById('battle-log'); const p = l.lastElementChild.getBoundingClientRect(), b = l.getBoundingClientRect(); return [l.lastElementChild.textContent, p.bottom <= b.bottom + 1 && p.top >= b.top - 1]; });
    check(newest[0].startsWith(line.split(' | chain')[0]) && newest[1], 'the newest line is in view', newest);
    z = await waitState(m, (x) => x.battle.log.length > before.m && x.battle.log[x.battle.log.length - 1] === line, 'the maze sees the shot in its log (kestrel is in the open)');
    const wardenPain = lastView(gm).combatants.find((x) => x.id === 'warden').pain;
    check(typeof wardenPain === 'number' && wardenPain > 20, 'the GM\'s view counts warden\'s Pain from it', wardenPain);

    // dune moves to Side 4: its token goes there, on every page that sees it.
    await press(c, '#battle-actors button[data-id="dune"]');
    s = await waitState(c, (x) => x.battleDrawn.actor === 'dune', 'a tap picks dune');
    check(s.battleDrawn.controls['bc-move-1'] === undefined && s.battleDrawn.controls['bc-move-4'] === true, 'dune may move to the Sides it is not on', s.battleDrawn.controls);
    before = { c: s.battle.log.length };
    await press(c, '#bc-move-4');
    s = await waitState(c, (x) => sideOf(x, 'dune') === 4, 'Move to Side 4: dune\'s token is on Side 4');
    check(s.battleDrawn.sides[3].tokens.includes('dune') && !s.battleDrawn.sides[0].tokens.includes('dune'), 'drawn there and not on Side 1', s.battleDrawn.sides);
    line = s.battle.log[s.battle.log.length - 1];
    check(s.battle.log.length === before.c + 1 && /dune moves from Side 1 to Side 4/.test(line), 'the log says so', line);
    z = await waitState(m, (x) => sideOf(x, 'dune') === 4, 'the maze\'s page shows dune on Side 4');
    check(!tokenOf(s, 'dune').badges.includes('C') && s.battleDrawn.controls['bc-hidden'] === undefined && s.battleDrawn.controls['bc-exposed'] === undefined,
      'dune left its cover, and Hidden or Exposed with it', [tokenOf(s, 'dune'), s.battleDrawn.controls]);

    // The GM's view of the move, sent on its own connection, may come after the maze's: counted
    // before the refusal, or it would read as a view sent for it.
    await waitState(gm, (x) => sideOf(x, 'dune') === 4, 'the GM\'s page shows dune on Side 4');
    await settle([c, m, gm]);

    // Moving took dune's turn: what it may not do now is not offered (its plan still is), and says why.
    s = await state(c);
    check(['bc-cover', 'bc-move-2', 'bc-move-3', 'bc-fire-go'].every((id) => s.battleDrawn.controls[id] === false) && s.battleDrawn.controls['bc-combat'] !== undefined,
      'dune, its turn over: no cover, move or fire offered', s.battleDrawn.controls);
    check(/^dune's turn is over/.test(s.battleDrawn.note || ''), 'the panel says its turn is over', s.battleDrawn.note);
    // Take cover sent all the same (an older page, a race with the turn): refused; the host's reason
    // beside the controls.
    const framesBefore = { c: told(c), m: told(m), gm: told(gm), at: c.frames.length };
    const revBefore = s.battleRev;
    await sendRaw(c, { type: 'battle_action', action: { do: 'take_cover', who: 'dune' } });
    s = await waitState(c, (x) => x.battleDrawn.refusal, 'Take cover for dune, whose turn is over, is refused');
    let refused = refusalsSince(c, framesBefore.at);
    check(refused.length === 1 && refused[0].to === 'battle_action' && s.battleDrawn.refusal === refused[0].reason && /dune/.test(refused[0].reason),
      'the panel shows the host\'s reason', [s.battleDrawn.refusal, refused]);
    const shown = await c.page.evaluate(() => {
      const r = document.getElementById('battle-refusal');
      const b = r.getBoundingClientRect();
      return { text: r.textContent, visible: !r.hidden && b.height > 0, inAct: document.getElementById('battle-act').contains(r), colour: getComputedStyle(r).color };
    });
    check(shown.visible && shown.inAct && shown.text === refused[0].reason && shown.colour === 'rgb(255, 123, 114)', 'beside the controls, in the refusals\' red', shown);
    await sleep(400);
    check(told(c) === framesBefore.c + 1 && told(m) === framesBefore.m && told(gm) === framesBefore.gm && (await state(c)).battleRev === revBefore,
      'and nothing changed: no battle view to anyone', [told(c) - framesBefore.c, told(m) - framesBefore.m, told(gm) - framesBefore.gm]);
    await c.page.$eval('#battle-refusal', (e) => e.scrollIntoView({ block: 'center' }));
    await shot(c, 'battle-phone-refused.png');

    // The next turn, and dune takes cover on Side 4 without a stealth check: the view changes.
    await press(gm, '#battle-next');
    s = await waitState(c, (x) => x.battle.turn === turn0 + 2, 'the GM starts the next turn');
    check(!s.battleDrawn.refusal && (await c.page.$eval('#battle-refusal', (e) => e.hidden)), 'the refusal, about the turn before, has gone', s.battleDrawn.refusal);
    await press(c, '#bc-stealth');
    check(!(await c.page.$eval('#bc-stealth', (e) => e.checked)), 'a tap unticks "Stealth check"');
    before = { c: s.battle.log.length };
    await press(c, '#bc-cover');
    s = await waitState(c, (x) => x.battle.combatants.find((y) => y.id === 'dune').behind_cover, 'Take cover: dune is behind cover');
    line = s.battle.log[s.battle.log.length - 1];
    check(s.battle.log.length === before.c + 1 && /dune takes cover behind the .* on Side 4 without a stealth check/.test(line), 'the log says so', line);
    check(tokenOf(s, 'dune').badges.startsWith('C') && tokenOf(s, 'dune').side === 4, 'and its token carries C on Side 4', tokenOf(s, 'dune'));
    check(Array.isArray(s.battleDrawn.sides[3].cover) && s.battleDrawn.sides[3].cover.length > 0 &&
      s.battleDrawn.sides[3].cover[0].name === lastView(gm).sides[3].cover[0].name, 'Side 4\'s cover is now shown to the contestants, as the GM has it', s.battleDrawn.sides[3]);
    await c.page.$eval('#battle', (e) => { e.scrollTop = 0; });
    await shot(c, 'battle-phone-acted.png');
    await checkFit(c, 'battle 360x640 after acting');

    // [SECTION] What the page never sends, sent over its connection: refused, nothing changed

    await settle([c, m, gm]);
    const beforeRaw = { c: c.frames.length, told: told(c), m: told(m), gm: told(gm) };
    const gmWarden = JSON.stringify(lastView(gm).combatants.find((x) => x.id === 'warden'));
    await sendRaw(c, { type: 'battle_action', action: { do: 'move', who: 'warden', to: 2 } });
    s = await waitState(c, (x) => refusalsSince(c, beforeRaw.c).length === 1 && x.battleDrawn.refusal, 'moving the maze\'s warden from the contestants\' seat is refused');
    refused = refusalsSince(c, beforeRaw.c);
    check(refused[0].to === 'battle_action' && /warden/.test(refused[0].reason) && s.battleDrawn.refusal === refused[0].reason, 'the page shows why', refused[0]);
    await sendRaw(c, { type: 'battle_action', action: { do: 'take_cover', who: 'kestrel', roll: [6, 6] } });
    s = await waitState(c, () => refusalsSince(c, beforeRaw.c).length === 2, 'dice from a player are refused');
    refused = refusalsSince(c, beforeRaw.c);
    check(/dice|roll/i.test(refused[1].reason) && (await state(c)).battleDrawn.refusal === refused[1].reason, 'saying why', refused[1]);
    await sendRaw(c, { type: 'battle_action', action: { do: 'next_turn' } });
    await waitState(c, () => refusalsSince(c, beforeRaw.c).length === 3, 'Next turn from a player is refused');
    await sleep(400);
    check(told(c) === beforeRaw.told + 3 && told(m) === beforeRaw.m && told(gm) === beforeRaw.gm, 'no battle view changed for anyone',
      [told(c) - beforeRaw.told, told(m) - beforeRaw.m, told(gm) - beforeRaw.gm]);
    check(JSON.stringify(lastView(gm).combatants.find((x) => x.id === 'warden')) === gmWarden, 'warden stands where it stood');

    // [SECTION] Nothing the contestants may not know

    // Every maze creature the GM's view showed in stealth in every frame the GM got: in no frame of
    // the contestants'. And of the maze's creatures they see, none of what only the maze may know.
    const gmViews = battleFrames(gm).map((x) => x.battle);
    const unseen = gmViews[0].combatants.filter((x) => x.team === 'maze' && gmViews.every((v) => { const y = v.combatants.find((q) => q.id === x.id); return y && y.stealth; })).map((x) => x.id);
    check(unseen.includes('nightjar'), 'the GM\'s views show the nightjar in stealth throughout', unseen);
    const cText = c.frames.join('\n');
    for (const id of unseen) check(!cText.includes(id), 'no frame the contestants received names "' + id + '"');
    const cViews = battleFrames(c).map((x) => x.battle);
    check(cViews.length >= 5, 'the contestants\' page received a view after each change it could see', cViews.length);
    const privateKeys = ['agility', 'initiative', 'intent', 'pain', 'pain_limit', 'wounds'];
    const privateTold = cViews.flatMap((v) => v.combatants.filter((x) => x.team !== 'contestants').flatMap((x) => privateKeys.filter((k) => k in x).map((k) => x.id + '.' + k)));
    check(privateTold.length === 0, 'nor the maze\'s creatures\' Agility, initiative, plan, Pain or wounds', privateTold);
    check(cViews.every((v) => v.combatants.every((x) => x.team === 'contestants' ? x.own === true : x.own === false)), 'each creature sent as its own or not, rightly');
    const side2 = gmViews[gmViews.length - 1].sides[1].cover[0].name;
    check(!/cover for Side 2: d28 = /.test(cText) && !cText.includes(side2) && gmViews[0].log.some((l) => /cover for Side 2: d28 = /.test(l)),
      'nor the GM\'s private roll of Side 2\'s cover, nor the cover (' + side2 + ')');
    const roll4 = (v) => v.log.find((l) => /cover for Side 4: /.test(l));
    check(/rolled in private/.test(roll4(cViews[0])) && /d28 = \d+ \(/.test(roll4(cViews[cViews.length - 1])),
      'Side 4\'s roll, private at first, is in their log once its cover was shown to them', [roll4(cViews[0]), roll4(cViews[cViews.length - 1])]);
    check(!JSON.stringify(await state(c)).includes('nightjar'), 'nothing the contestants\' page holds names the nightjar');
    const heap = await heapText(c);
    check(heap.length > 100000 && heap.includes('warden') && !heap.includes('nightjar'), 'nor does anything in its memory (while it holds "warden")');
    // An id the seat may not know is refused as one no creature has.
    const beforeProbe = c.frames.length;
    await sendRaw(c, { type: 'battle_action', action: { do: 'move', who: 'nightjar', to: 1 } });
    await sendRaw(c, { type: 'battle_action', action: { do: 'move', who: 'nobody-here', to: 1 } });
    await waitState(c, () => refusalsSince(c, beforeProbe).length === 2, 'acting for the unseen nightjar and for nobody are refused');
    refused = refusalsSince(c, beforeProbe);
    check(refused[0].reason === refused[1].reason.split('nobody-here').join('nightjar'), 'in the same words', refused.map((x) => x.reason));

    // [SECTION] The bar's button: the board and the battle

    await press(c, '#battle-toggle');
    s = await waitState(c, (x) => !x.battleDrawn.open, 'on the phone the bar\'s button goes back to the board');
    const board = await c.page.evaluate(() => { const b = document.getElementById('board').getBoundingClientRect(); return [b.width, b.height, document.getElementById('battle-toggle').textContent]; });
    check(board[0] >= 300 && board[1] >= 400 && board[2] === 'Battle', 'the board fills the screen, the button says Battle', board);
    check(s.view.scale > 4, 'and the board is fitted to it', s.view);
    await checkFit(c, '360x640 board of a battle table');
    await press(c, '#battle-toggle');
    s = await waitState(c, (x) => x.battleDrawn.open, 'and back to the battle');

    for (const p of [c, gm, m]) check(p.errors.length === 0, 'no error in the page\'s console', p.errors);
    check(fs.readFileSync(shipped, 'utf8') === shippedText, 'the shipped battle file is untouched');
    check(JSON.parse(fs.readFileSync(battlePath, 'utf8')).events.length > battle.events.length, '(the host wrote the actions to the copy)');
  } finally {
    await browser.close().catch(() => {});
    child.kill('SIGTERM');
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log('web battle: all ' + checkCount() + ' checks passed; screenshots in ' + outDir);
}

runMain('battle', 120, main);
