#!/usr/bin/env node
// The players' page (assets/web) in Debian's Chromium, headless, against a real sightline-server:
// two seats' pages (a phone and a laptop) and the GM over a WebSocket. What is drawn, touch drags,
// a refused move, a ruling in the host's words, pinch and pan, every button, a dropped connection
// resumed, a wrong link refused, nothing overflowing at either size, and nothing the seat may not
// know in any frame it received, in what the page holds, or anywhere in the page's memory. Then
// battle.test.js: a MazeWorld battle's panel at a table serving one; and defense.test.js: Doom's
// defense cards' panel at a Doom table.
//
//   node page.test.js --server PATH --cli PATH --out DIR
//
// Exit 0: passed; 77: skipped (no Chromium or no puppeteer-core: tools/setup.sh installs both);
// anything else: failed, with the check that failed.
'use strict';

const fs = require('fs');
const http = require('http');
const net = require('net');
const path = require('path');
const { spawnSync, execFileSync } = require('child_process');
const {
  outDir, cliPath, serverPath, driver, launch, check, checkCount, sleep, startServer, openSeat, state, waitState, shot, checkFit, heapText,
} = require('./support');

const here = __dirname;
const { WebSocket } = driver('web page');

// [SECTION] The host, a proxy that can drop the page's connection, the GM

// A TCP proxy in front of the host: drop() closes every connection through it and refuses new
// ones until up().
function startProxy(port) {
  const open = new Set();
  let down = false;
  const server = net.createServer((client) => {
    if (down) return client.destroy();
    const upstream = net.connect(port, '127.0.0.1');
    const pair = { client, upstream };
    open.add(pair);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(pair);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    port: server.address().port,
    drop() {
      down = true;
      for (const p of [...open]) {
        p.client.destroy();
        p.upstream.destroy();
      }
      open.clear();
    },
    up() { down = false; },
    close() { server.close(); },
  })));
}

function gmClient(seat) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(seat.ws.split('?')[0]);
    const got = [];
    ws.on('open', () => ws.send(JSON.stringify({ type: 'join', seat: 'gm', token: seat.token })));
    ws.on('message', (m) => {
      const j = JSON.parse(String(m));
      got.push(j);
      if (j.type === 'snapshot' && got.length === 1) resolve({ ws, got, rev: () => got.filter((x) => x.rev !== undefined).pop().rev });
    });
    ws.on('error', reject);
  });
}

// [SECTION] A page of a seat

const figure = (s, id) => s.drawn.figures.find((f) => f.id === id);
const boardFigure = (s, id) => (s.board.figures || []).find((f) => f.id === id);

// A finger on the screen: from one board point to another (the figure's middle), in steps.
async function touchDrag(seat, from, to) {
  const release = await touchHold(seat, from, to);
  await release();
}
// A finger that presses a figure and moves it without letting go; release() lets go.
async function touchHold(seat, from, to) {
  await seat.page.bringToFront();
  const [x0, y0] = await seat.page.evaluate((p) => window.sightlineTable.toScreen(p[0], p[1]), from);
  const [x1, y1] = await seat.page.evaluate((p) => window.sightlineTable.toScreen(p[0], p[1]), to);
  await seat.cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: x0, y: y0, id: 1 }] });
  for (let k = 1; k <= 6; ++k) {
    const t = k / 6;
    await seat.cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: x0 + (x1 - x0) * t, y: y0 + (y1 - y0) * t, id: 1 }] });
    await sleep(16);
  }
  return async () => seat.cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}
async function tap(seat, at) {
  await seat.page.bringToFront();
  const [x, y] = await seat.page.evaluate((p) => window.sightlineTable.toScreen(p[0], p[1]), at);
  await seat.cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y, id: 1 }] });
  await sleep(30);
  await seat.cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}
async function twoFingers(seat, a0, b0, a1, b1) {
  await seat.page.bringToFront();
  const t = (a, b) => [{ x: a[0], y: a[1], id: 1 }, { x: b[0], y: b[1], id: 2 }];
  await seat.cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: t(a0, b0) });
  for (let k = 1; k <= 6; ++k) {
    const f = k / 6;
    const lerp = (p, q) => [p[0] + (q[0] - p[0]) * f, p[1] + (q[1] - p[1]) * f];
    await seat.cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: t(lerp(a0, a1), lerp(b0, b1)) });
    await sleep(16);
  }
  await seat.cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}
async function press(seat, selector) {
  await seat.page.bringToFront();
  await seat.page.click(selector);
}

// [SECTION] The test

async function main() {
  fs.mkdirSync(outDir, { recursive: true });
  const mapPath = path.join(here, 'data', 'table.json');
  const { child, seats } = await startServer(mapPath);
  const proxy = await startProxy(seats.marines.port);
  const browser = await launch(driver('web page'));
  try {
    const phone = { width: 360, height: 640, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
    const laptop = { width: 1280, height: 800, deviceScaleFactor: 1, isMobile: false, hasTouch: false };
    const pageOf = (port, seat) => 'http://127.0.0.1:' + port + '/?seat=' + seat + '&token=' + seats[seat].token;

    // The marines' player on a phone (through the proxy), the invaders' on a laptop, the GM.
    const a = await openSeat(browser, pageOf(proxy.port, 'marines'), phone);
    const b = await openSeat(browser, pageOf(seats.invaders.port, 'invaders'), laptop);
    const gm = await gmClient(seats.gm);

    let s = await waitState(a, (x) => x.connection === 'connected' && x.drawn.figures.length > 0, 'the phone joins the marines\' seat');
    check(s.connectionText === 'Connected', 'the bar says it is connected', s.connectionText);
    const ids = s.drawn.figures.map((f) => f.id).sort();
    check(JSON.stringify(ids) === JSON.stringify(['ghoul', 'medic', 'scout']), 'it draws its two figures and the ghoul it sees, not the lurker', ids);
    check(figure(s, 'scout').own && figure(s, 'medic').own && !figure(s, 'ghoul').own, 'its own figures are told apart');
    check(JSON.stringify(figure(s, 'scout').hp) === '[5,6]' && figure(s, 'ghoul').hp === null,
      'its own figure\'s health bar is drawn, not the ghoul\'s (whose health it may not know)', [figure(s, 'scout').hp, figure(s, 'ghoul').hp]);
    check(s.drawn.walls === 2 && s.drawn.doors === 1 && s.drawn.terrainCells === 4, 'the walls, the door and the terrain are drawn', s.drawn);
    // Token pictures: each under the name the table gives it, fetched from the host and drawn in
    // its disc; the medic, which names none, keeps its disc alone.
    s = await waitState(a, (x) => figure(x, 'scout').picture && figure(x, 'ghoul').picture, 'the pictures of the scout and the ghoul arrive');
    const named = /^\/picture\/[0-9a-f]{32}\.png$/;
    check(named.test(figure(s, 'scout').picture) && named.test(figure(s, 'ghoul').picture) && figure(s, 'medic').picture === null,
      'the scout and the ghoul are drawn with their pictures, under names that say nothing of their files', s.drawn.figures.map((f) => f.picture));
    check(figure(s, 'scout').picture !== figure(s, 'ghoul').picture, '(two pictures, two names)');
    check(a.requests.some((u) => u.endsWith(figure(s, 'scout').picture)), 'the page fetched the scout\'s picture from its host', a.requests);
    const status = (u) => new Promise((resolve, reject) => http.get(u, (r) => { r.resume(); resolve(r.statusCode); }).on('error', reject));
    const host = 'http://127.0.0.1:' + seats.marines.port;
    check(await status(host + figure(s, 'scout').picture) === 200, 'the host serves a picture by the name it gave');
    const wrongName = await status(host + '/picture/' + '0'.repeat(32) + '.png');
    check(wrongName === 404, 'a name the table never gave is not found', wrongName);
    const namesSent = new Set((a.frames.join('\n').match(/\/picture\/[0-9a-f]{32}\.png/g) || []));
    check(namesSent.size === 2 && namesSent.has(figure(s, 'scout').picture) && namesSent.has(figure(s, 'ghoul').picture),
      'the marines were sent the names of the pictures they see and no other (not the lurker\'s)', [...namesSent]);
    check(s.drawn.fogRings > 0 && s.sight.length === s.drawn.fogRings, 'fog is cut where its figures see', s.drawn.fogRings);
    let t = await waitState(b, (x) => x.connection === 'connected' && x.drawn.figures.length > 0, 'the laptop joins the invaders\' seat');
    check(t.drawn.figures.map((f) => f.id).sort().join() === 'ghoul,lurker,medic,scout', 'the invaders see their own and the marines the ghoul sees', t.drawn.figures.map((f) => f.id));
    for (const p of [a, b]) {
      const origin = new URL(p.page.url()).origin;
      check(p.requests.every((u) => u.startsWith(origin) || u.startsWith('data:')), 'the page fetches nothing but from its host', p.requests);
    }
    await shot(a, 'phone-joined.png');
    await checkFit(a, '360x640');

    // While the scout (move 6) is dragged, its path from where it stood and the cost follow the
    // finger: the host's reach, searched on what the marines know, as sightline-cli path says on the
    // marines' own map. Let go where it stood, nothing is sent.
    const seatMap = path.join(outDir, 'marines-map.json');
    fs.writeFileSync(seatMap, JSON.stringify((await state(a)).board));
    const want = JSON.parse(execFileSync(cliPath, ['path', seatMap, '--figure', 'scout', '--to', '5,3', '--json'], { encoding: 'utf8' }));
    let release = await touchHold(a, [1.5, 1.5], [5.5, 3.5]);
    s = await waitState(a, (x) => x.drawn.pathLabel, 'a dragged figure shows its path and cost');
    check(s.drawn.pathLabel === 'cost ' + want.cost + ' of 6', 'the cost is sightline-cli path\'s', [s.drawn.pathLabel, want.cost]);
    check(JSON.stringify(s.drawn.path) === JSON.stringify(want.path), 'and so is the path', [s.drawn.path, want.path]);
    check(s.reach && s.reach.figure === 'scout' && s.reach.budget === 6, 'from the host\'s reach', s.reach && s.reach.budget);
    await shot(a, 'phone-path.png');
    const [hx, hy] = await a.page.evaluate(() => window.sightlineTable.toScreen(1.5, 1.5));
    await a.cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: hx, y: hy, id: 1 }] });
    await release();
    // Beyond its move: said in red, no path.
    release = await touchHold(a, [1.5, 1.5], [9.5, 6.5]);
    s = await waitState(a, (x) => x.drawn.pathLabel && x.drawn.pathLabel.startsWith('beyond'), 'beyond its move it says so');
    check(s.drawn.path === null, 'with no path drawn', s.drawn.path);
    const [gx, gy] = await a.page.evaluate(() => window.sightlineTable.toScreen(1.5, 1.5));
    await a.cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: gx, y: gy, id: 1 }] });
    await release();
    s = await waitState(a, (x) => !x.drawn.pathLabel && boardFigure(x, 'scout').cell.join() === '1,1' && !x.pending, 'let go where it stood: nothing moves');

    // A finger drags the scout from (1,1) to (2,2): the host moves it, the invaders' page follows.
    await touchDrag(a, [1.5, 1.5], [2.5, 2.5]);
    s = await waitState(a, (x) => boardFigure(x, 'scout') && boardFigure(x, 'scout').cell.join() === '2,2' && !x.pending, 'the dragged scout stands at (2,2) on the host\'s word');
    check(figure(s, 'scout').cell.join() === '2,2', 'and is drawn there');
    t = await waitState(b, (x) => boardFigure(x, 'scout') && boardFigure(x, 'scout').cell.join() === '2,2', 'the other seat\'s page shows the scout where it went');
    check(gm.got.some((m) => m.type === 'patch' && JSON.stringify(m).includes('"scout"')), 'the GM heard of it');

    // Onto the ghoul: refused, the scout goes back, the reason is shown.
    await touchDrag(a, [2.5, 2.5], [4.5, 1.5]);
    s = await waitState(a, (x) => x.message && x.message.kind === 'refusal', 'a move onto the ghoul is refused and says so');
    check(boardFigure(s, 'scout').cell.join() === '2,2' && figure(s, 'scout').cell.join() === '2,2' && !s.pending, 'the scout snaps back', figure(s, 'scout'));
    check(s.message.text.length > 0, 'with the host\'s reason', s.message);
    await shot(a, 'phone-refused.png');
    // A later move that stands takes the refusal away (it was the move before's), and back.
    await touchDrag(a, [1.5, 5.5], [1.5, 4.5]);
    s = await waitState(a, (x) => boardFigure(x, 'medic').cell.join() === '1,4' && !x.pending, 'the medic moves');
    check(!s.message, 'and the old refusal is gone', s.message);
    await touchDrag(a, [1.5, 4.5], [1.5, 5.5]);
    s = await waitState(a, (x) => boardFigure(x, 'medic').cell.join() === '1,5' && !x.pending, 'and back');
    await tap(a, [2.5, 2.5]);  // the scout picked again to attack
    s = await waitState(a, (x) => x.message && x.message.title === 'scout picked', 'the scout picked');
    await press(a, '#panel-close');
    // A door tapped is the GM's: said, and nothing sent.
    await tap(a, [6, 4]);
    s = await waitState(a, (x) => x.message && x.message.title === 'Door door-mid', 'a tap on the door says whose it is');
    check(/GM opens and closes doors/.test(s.message.text) && /^Closed/.test(s.message.text), 'the door is the GM\'s, and closed', s.message);
    await press(a, '#panel-close');

    // A tap on the ghoul: the ruling, in the words sightline-cli uses on the same board.
    await tap(a, [4.5, 1.5]);
    s = await waitState(a, (x) => x.ruling && x.ruling.defender === 'ghoul', 'a tap on the ghoul asks the ruling');
    check(s.ruling.attacker === 'scout', 'with the scout (the figure last picked) attacking', s.ruling);
    const board = JSON.parse(fs.readFileSync(mapPath, 'utf8'));
    board.figures.find((f) => f.id === 'scout').cell = [2, 2];
    const moved = path.join(outDir, 'scout-moved.json');
    fs.writeFileSync(moved, JSON.stringify(board));
    const cli = JSON.parse(execFileSync(cliPath, ['cover', moved, '--attacker', 'scout', '--defender', 'ghoul', '--json'], { encoding: 'utf8' }));
    check(s.ruling.explanation === cli.explanation && s.message.text === cli.explanation, 'the panel says what sightline-cli says', [s.message.text, cli.explanation]);
    // The lines are drawn at the next frame after the ruling lands: waited for, on a busy machine.
    s = await waitState(a, (x) => x.drawn && x.drawn.rulingLines === cli.lines.length, 'the ruling\'s lines are drawn');
    check(s.drawn.rulingLines === cli.lines.length, 'its lines are drawn', s.drawn.rulingLines);
    await shot(a, 'phone-ruling.png');
    await checkFit(a, '360x640 with a ruling');
    // The scout moved, the ruling (of where it stood) goes with its lines; moved back, asked again.
    await touchDrag(a, [2.5, 2.5], [2.5, 1.5]);
    s = await waitState(a, (x) => boardFigure(x, 'scout').cell.join() === '2,1' && !x.pending, 'the scout moves up a cell');
    check(!s.ruling && !s.message, 'the ruling of where it stood is gone, panel and lines', [s.ruling && s.ruling.attacker, s.message]);
    await touchDrag(a, [2.5, 1.5], [2.5, 2.5]);
    s = await waitState(a, (x) => boardFigure(x, 'scout').cell.join() === '2,2' && !x.pending, 'and back');
    await tap(a, [4.5, 1.5]);
    s = await waitState(a, (x) => x.ruling && x.ruling.defender === 'ghoul' && x.ruling.attacker === 'scout', 'the ruling asked again');
    // The GM moves the ghoul a cell and back: the ruling goes with the first move (a patch from the table).
    gm.ws.send(JSON.stringify({ type: 'move', figure: 'ghoul', to: [4, 2], rev: gm.rev() }));
    s = await waitState(a, (x) => boardFigure(x, 'ghoul').cell.join() === '4,2', 'the GM moves the ghoul');
    check(!s.ruling && !s.message, 'the ruling of where the ghoul stood is gone', [s.ruling && s.ruling.defender, s.message]);
    gm.ws.send(JSON.stringify({ type: 'move', figure: 'ghoul', to: [4, 1], rev: gm.rev() }));
    s = await waitState(a, (x) => boardFigure(x, 'ghoul').cell.join() === '4,1', 'and back');
    await tap(a, [4.5, 1.5]);
    s = await waitState(a, (x) => x.ruling && x.ruling.defender === 'ghoul' && x.ruling.attacker === 'scout', 'the ruling asked once more');
    await press(a, '#panel-close');
    s = await waitState(a, (x) => !x.message && !x.ruling, 'the panel\'s close button closes it');

    // Zoomed far out, a finger on the scout's middle is the scout's, though the ghoul's disc, drawn
    // after it, lies within a thumb's reach: the figure under the finger first, else the nearest.
    for (let i = 0; i < 8; ++i) await press(a, '#zoom-out');
    s = await waitState(a, (x) => x.view.scale <= 6, 'zoomed far out');
    await tap(a, [2.5, 2.5]);
    s = await waitState(a, (x) => x.message, 'a tap on the scout, small');
    check(s.message.title === 'scout picked', 'picks the scout, not the ghoul beside it', s.message);
    await press(a, '#panel-close');
    await press(a, '#fit');
    s = await waitState(a, (x) => !x.message, 'fitted again');

    // Pinch out, two-finger pan, and the buttons.
    const before = s.view.scale;
    await twoFingers(a, [150, 330], [210, 330], [110, 330], [250, 330]);
    s = await waitState(a, (x) => x.view.scale > before * 1.8, 'a pinch zooms in');
    const ox = s.view.ox;
    await twoFingers(a, [120, 330], [220, 330], [170, 330], [270, 330]);
    s = await waitState(a, (x) => Math.abs(x.view.ox - (ox + 50)) < 6, 'two fingers pan the board');
    await press(a, '#fit');
    s = await waitState(a, (x) => Math.abs(x.view.scale - before) < 1e-6, 'Fit shows the whole board again');
    await press(a, '#zoom-in');
    s = await waitState(a, (x) => Math.abs(x.view.scale - before * 1.25) < 1e-6, '+ zooms in');
    await press(a, '#zoom-out');
    s = await waitState(a, (x) => Math.abs(x.view.scale - before) < 1e-6, '− zooms out');

    // The GM moves the lurker where no marine sees it: the marines' page gets nothing.
    let framesA = a.frames.length;
    const framesB = b.frames.length;
    gm.ws.send(JSON.stringify({ type: 'move', figure: 'lurker', to: [10, 5], rev: gm.rev() }));
    await waitState(b, (x) => boardFigure(x, 'lurker') && boardFigure(x, 'lurker').cell.join() === '10,5', 'the invaders see their lurker moved by the GM');
    await sleep(500);
    check(a.frames.length === framesA, 'a move the marines cannot see sends their page nothing', a.frames.slice(framesA));
    check(b.frames.length > framesB, 'while the invaders\' page got it');

    // The GM's round tracker moves on, its board sent back whole (pictures by their names): the
    // marines are told it is their scout's turn, the invaders the round alone; then the lurker's
    // turn, which the marines are not told of.
    const gmBoard = async () => {
      const n = gm.got.length;
      gm.ws.send(JSON.stringify({ type: 'snapshot' }));
      for (let i = 0; i < 100 && !gm.got.slice(n).some((x) => x.type === 'snapshot'); ++i) await sleep(50);
      return gm.got.slice(n).find((x) => x.type === 'snapshot');
    };
    // The GM's tracker step: its whole board sent back, or (as the hosting app sends it) the key alone.
    const setTurn = async (round, turn, whole) => {
      const snap = await gmBoard();
      check(snap && snap.map, 'the GM has its board');
      const tracker = { round: round, turn: turn, turn_initiative: 13, initiative_seed: 987654 };
      const map = snap.map;
      map.tracker = tracker;
      const change = whole ? { type: 'replace_board', what: 'next turn', map: map } : { type: 'set_map_key', key: 'tracker', value: JSON.stringify(tracker) };
      gm.ws.send(JSON.stringify({ type: 'change', change: change, rev: snap.rev }));
    };
    await setTurn(2, 'scout', true);
    s = await waitState(a, (x) => x.drawn.round === 'Round 2 · your turn: scout', 'the marines are told it is their scout\'s turn');
    t = await waitState(b, (x) => x.drawn.round === 'Round 2', 'the invaders are told the round, not whose turn');
    check(figure(s, 'scout').picture !== null, 'the board sent back whole keeps its pictures', figure(s, 'scout').picture);
    check(figure(s, 'scout').turn && !figure(s, 'medic').turn && !figure(s, 'ghoul').turn, 'the scout is ringed as whose turn it is');

    await shot(a, 'phone-round.png');
    await checkFit(a, '360x640 round');
    await setTurn(2, 'lurker', false);
    s = await waitState(a, (x) => x.drawn.round === 'Round 2', 'the lurker\'s turn: the marines see the round alone');
    const lastPatch = a.frames.map((x) => JSON.parse(x)).filter((x) => x.type === 'patch').pop();
    check(lastPatch && lastPatch.change.type === 'set_map_key' && lastPatch.change.key === 'tracker' &&
      JSON.stringify(JSON.parse(lastPatch.change.value)) === '{"round":2}', 'it came as the tracker key alone, not a whole board', lastPatch && lastPatch.change);
    t = await waitState(b, (x) => x.drawn.round === 'Round 2 · your turn: lurker', 'and the invaders their lurker\'s turn');
    check(!a.frames.join('\n').includes('987654') && !a.frames.join('\n').includes('initiative'), 'no frame to the marines holds the roll\'s seed or an initiative');

    // The host's socket dropped: the page says so, the GM moves the ghoul meanwhile, and the page
    // comes back by itself to the table as it is.
    proxy.drop();
    s = await waitState(a, (x) => x.connection === 'reconnecting', 'a dropped connection shows as reconnecting');
    check(/^Reconnecting in \d+ s$/.test(s.connectionText), 'and says when it tries again', s.connectionText);
    await shot(a, 'phone-reconnecting.png');
    await checkFit(a, '360x640 reconnecting');
    gm.ws.send(JSON.stringify({ type: 'move', figure: 'ghoul', to: [4, 3], rev: gm.rev() }));
    await sleep(300);
    proxy.up();
    s = await waitState(a, (x) => x.connection === 'connected' && boardFigure(x, 'ghoul') && boardFigure(x, 'ghoul').cell.join() === '4,3', 'it reconnects and shows the ghoul where it went meanwhile', 20000);
    check(boardFigure(s, 'scout').cell.join() === '2,2', 'and its own figures where they stood');

    // A reload (a phone that dropped the page) keeps what the seat had seen: the picture of the
    // explored board is kept in the tab's session storage and read back.
    const exploredBefore = await a.page.evaluate(() => window.sightlineTable.exploredArea());
    check(exploredBefore > 0, 'the page remembers what its figures saw', exploredBefore);
    await sleep(1300);  // kept at most once a second
    check(!s.exploredRestored, '(a page opened afresh had nothing to read back)');
    await a.page.reload();
    s = await waitState(a, (x) => x.connection === 'connected' && x.drawn.figures.length > 0, 'the reloaded page joins again');
    check(s.exploredRestored, 'the reloaded page reads back what the seat had seen');
    const exploredAfter = await a.page.evaluate(() => window.sightlineTable.exploredArea());
    check(Math.abs(exploredAfter - exploredBefore) < 0.5, 'all of it, and nothing more', [exploredBefore, exploredAfter]);
    const keptText = await a.page.evaluate(() => JSON.stringify(Object.entries(sessionStorage)));
    check(!keptText.includes('lurker') && !keptText.includes('ambush') && keptText.length < 100000, 'what the tab keeps is a small picture and no secret', keptText.length);
    await shot(a, 'phone-reloaded.png');

    // Nothing the marines may not know: not in a frame, not in what the page holds, not in its memory.
    framesA = a.frames.join('\n');
    for (const secret of ['lurker', 'ambush', 'note', '4711', 'beast.png', 'assets/tokens']) {
      check(!framesA.includes(secret), 'no frame the marines received holds "' + secret + '"');
      check(!JSON.stringify(s).includes(secret), 'nothing the marines\' page holds says "' + secret + '"');
    }
    const heap = await heapText(a);
    check(heap.length > 100000, 'the page\'s heap was read', heap.length);
    check(!heap.includes('lurker') && !heap.includes('ambush'), 'the marines\' page\'s memory holds no "lurker" and no "ambush"');
    check(heap.includes('ghoul'), '(the heap holds what the seat knows: the ghoul)');

    // Let go off the board: the figure, drawn red while held there, stays where it was (not moved to
    // the edge), and nothing is sent.
    framesA = a.frames.length;
    await touchDrag(a, [2.5, 2.5], [-1.5, 2.5]);
    s = await waitState(a, (x) => x.message && x.message.title === 'Not moved', 'a figure let go off the board is not moved, and the page says so');
    check(boardFigure(s, 'scout').cell.join() === '2,2' && !s.pending, 'the scout stays at (2,2)', boardFigure(s, 'scout').cell);
    await sleep(300);
    check(!a.frames.slice(framesA).some((x) => JSON.parse(x).type === 'patch'), 'and the host moved nothing', a.frames.slice(framesA));
    await press(a, '#panel-close');

    // A phone turned: a board fitted is fitted again to the new shape; one the player zoomed keeps
    // the point in the middle of the view in the middle.
    const inView = (x) => x.view.ox >= -0.5 && x.view.oy >= -0.5 && x.view.ox + x.board.grid.width * x.view.scale <= x.room.w + 0.5 &&
      x.view.oy + x.board.grid.height * x.view.scale <= x.room.h + 0.5;
    await press(a, '#fit');
    s = await waitState(a, (x) => inView(x), 'Fit: the whole board in view');
    await a.page.setViewport({ width: 640, height: 360, deviceScaleFactor: 2, isMobile: true, hasTouch: true, isLandscape: true });
    s = await waitState(a, (x) => x.room.w > x.room.h && inView(x), 'the phone turned to landscape: the board fitted to it, whole in view');
    check(inView(s), 'the whole board in the landscape view', [s.view, s.room]);
    await shot(a, 'phone-landscape.png');
    await press(a, '#zoom-in');
    await press(a, '#zoom-in');
    s = await state(a);
    const middle = [(s.room.w / 2 - s.view.ox) / s.view.scale, (s.room.h / 2 - s.view.oy) / s.view.scale];
    await a.page.setViewport(phone);
    s = await waitState(a, (x) => x.room.h > x.room.w, 'turned back to portrait');
    const now = [(s.room.w / 2 - s.view.ox) / s.view.scale, (s.room.h / 2 - s.view.oy) / s.view.scale];
    check(Math.hypot(now[0] - middle[0], now[1] - middle[1]) < 0.05, 'zoomed in, the board point in the middle of the view stays there', [middle, now]);
    await press(a, '#fit');
    await a.page.setViewport({ width: 640, height: 360, deviceScaleFactor: 2, isMobile: true, hasTouch: true, isLandscape: true });
    await waitState(a, (x) => x.room.w > x.room.h && inView(x), 'fitted again, turned again: still whole in view');
    await a.page.setViewport(phone);
    s = await waitState(a, (x) => x.room.h > x.room.w && inView(x), 'and back: whole in view');
    await shot(a, 'phone-turned-back.png');

    // A figure's id is drawn whole where it fits, not cut to a few letters: the GM adds a marine with
    // a long one beside the scout, and at a near zoom the phone shows all of it.
    {
      const snap = await gmBoard();
      const map = snap.map;
      map.figures.push({ id: 'sergeant-at-arms', cell: [2, 3], side: 'marines' });
      gm.ws.send(JSON.stringify({ type: 'change', change: { type: 'replace_board', what: 'add a figure', map: map }, rev: snap.rev }));
    }
    s = await waitState(a, (x) => figure(x, 'sergeant-at-arms'), 'the phone draws the new marine');
    check(figure(s, 'sergeant-at-arms').label !== 'sergeant-at-arms', '(at Fit on a phone it is cut to its room)', figure(s, 'sergeant-at-arms').label);
    for (let i = 0; i < 6; ++i) await press(a, '#zoom-in');
    s = await waitState(a, (x) => x.view.scale >= 70 && figure(x, 'sergeant-at-arms'), 'zoomed near');
    check(figure(s, 'sergeant-at-arms').label === 'sergeant-at-arms', 'near, its whole id is drawn', figure(s, 'sergeant-at-arms').label);
    check(figure(s, 'scout').label === 'scout', 'and so is the scout\'s', figure(s, 'scout').label);
    await press(a, '#fit');

    // A wrong link is refused for good, and says so.
    const c = await openSeat(browser, 'http://127.0.0.1:' + seats.marines.port + '/?seat=marines&token=' + '0'.repeat(32), phone);
    s = await waitState(c, (x) => x.connection === 'refused', 'a wrong link is refused');
    check(s.connectionText === 'Not joined' && s.message && /^Wrong seat or token\..*GM/.test(s.message.text), 'with the reason and what to do', s.message);
    await shot(c, 'phone-refused-link.png');
    await checkFit(c, '360x640 refused');
    await sleep(1500);
    check((await state(c)).connection === 'refused' && c.frames.length === 1, 'and does not keep trying', c.frames);
    await press(c, '#retry');  // Try again: one more attempt, refused the same way
    s = await waitState(c, (x) => x.connection === 'refused' && c.frames.length === 2, 'Try again asks once more and is refused again');
    check(s.message && /^Wrong seat or token\./.test(s.message.text), 'saying why again', s.message);

    // The GM's page: a figure tapped is its attacker, another the defender; the ruling closed, the
    // next tap picks an attacker anew (the GM acts for every side).
    const g = await openSeat(browser, 'http://127.0.0.1:' + seats.gm.port + '/?seat=gm&token=' + seats.gm.token, laptop);
    s = await waitState(g, (x) => x.connection === 'connected' && x.drawn.figures.length >= 4, 'the GM\'s page joins, every figure drawn');
    const centreOf = (id) => boardFigure(s, id).cell.map((v) => v + 0.5);
    const ghoulAt = centreOf('ghoul'), scoutAt = centreOf('scout');
    const click = async (at) => {
      const [x, y] = await g.page.evaluate((p) => window.sightlineTable.toScreen(p[0], p[1]), at);
      await g.page.mouse.click(x, y);
    };
    await click(ghoulAt);
    s = await waitState(g, (x) => x.message && x.message.title === 'ghoul picked', 'the GM picks the ghoul');
    await click(scoutAt);
    s = await waitState(g, (x) => x.ruling && x.ruling.attacker === 'ghoul' && x.ruling.defender === 'scout', 'the ghoul against the scout');
    await press(g, '#panel-close');
    await click(scoutAt);
    s = await waitState(g, (x) => x.message && x.message.title === 'scout picked', 'closed, the next figure clicked is the attacker');
    await click(ghoulAt);
    s = await waitState(g, (x) => x.ruling && x.ruling.attacker === 'scout' && x.ruling.defender === 'ghoul', 'the scout against the ghoul');
    check(s.ruling.attacker === 'scout', 'the GM ruled the other way round', s.ruling);
    await g.page.close();

    // The laptop: whole, nothing overflowing.
    await shot(b, 'laptop.png');
    await checkFit(b, '1280x800');
    // (The browser itself logs each connection attempt that found no host while the proxy was down.)
    for (const p of [a, b, c]) {
      const errors = p.errors.filter((e) => !(p === a && /^WebSocket connection to .* failed/.test(e)));
      check(errors.length === 0, 'no error in the page\'s console', errors);
    }
  } finally {
    await browser.close().catch(() => {});
    proxy.close();
    child.kill('SIGTERM');
  }
  console.log('web page: all ' + checkCount() + ' checks passed; screenshots in ' + outDir);
}

// The battle's part, then the defense cards': each its own process, server and browser (node
// battle.test.js, node defense.test.js, the same arguments).
function part(file, name, timeout) {
  const r = spawnSync(process.execPath, [path.join(here, file), '--server', serverPath, '--cli', cliPath, '--out', outDir], { stdio: 'inherit', timeout: timeout });
  if (r.error) console.log(name + ': FAILED: ' + r.error.message);
  return r.status === null ? 1 : r.status;
}
function battle() {
  const b = part('battle.test.js', 'web battle', 140000);
  const d = part('defense.test.js', 'web defense', 100000);
  return b !== 0 ? b : d;
}

const timer = setTimeout(() => {
  console.log('web page: FAILED: over 150 s');
  process.exit(1);
}, 150000);
main().then(() => {
  clearTimeout(timer);
  process.exit(battle());
}, (e) => {
  console.log(String(e.message || e));
  process.exit(1);
});
