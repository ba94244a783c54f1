// A seat of a Sightline table in the browser: the board as the seat knows it (the host sends
// nothing else), moved with a finger or the mouse, with the cover ruling a tap away; and, when the
// table serves one, a MazeWorld battle as the seat's team may know it, with its creatures' actions;
// or, when a Doom table serves them, the defense cards: a figure's defense revealed against an
// attacker it sees.
//
// Index of this file:
// [SECTION] The seat and the connection
// [SECTION] Messages: snapshot, patch, ruling, battle, defense, refused
// [SECTION] The view: where the board is on the screen
// [SECTION] Drawing
// [SECTION] Touch and mouse
// [SECTION] The panel and the bar
// [SECTION] The battle: a MazeWorld fight beside the board
// [SECTION] Doom's defense cards beside the board
// [SECTION] Test hook
'use strict';

(function () {
  // [SECTION] The seat and the connection

  const params = new URLSearchParams(location.search);
  const seatName = params.get('seat') || '';
  const token = params.get('token') || '';

  const table = {
    connection: 'connecting', // connecting, connected, reconnecting, refused
    connectionText: 'Connecting…',
    refusedForGood: false,
    seat: seatName,
    side: null,           // the seat's side, "*" for the GM's
    figureList: null,     // the seat's figures, when it holds a list instead of a side
    rev: -1,
    board: null,          // the seat's map (sightline-map), as the last snapshot and patches make it
    sight: null,          // the outlines the seat's figures see now; null: the GM's, sees all
    pending: null,        // a move sent and not answered: {id, to: [x, y], from: [x, y]}
    ruling: null,         // the last ruling asked for
    message: null,        // {title, text, kind}
    selected: null,       // the own figure whose rulings a tap asks for
    reach: null,          // where a figure of the seat's can get to: the host's "reach" answer, as it came
    battle: null,         // the MazeWorld battle as the seat may know it: the host's last "battle" view, as it came
    battleRev: -1,
    defense: null,        // Doom's defense cards as the seat may know them: the host's last "defense" view, as it came
    defenseRev: -1,
  };

  let socket = null;
  let retryDelay = 0.5;   // seconds; doubles to 10 after each failed attempt
  let retryTimer = null;
  let countdownTimer = null;
  let pingTimer = null;

  function wsUrl() {
    return (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/table';
  }

  function connect() {
    clearTimeout(retryTimer);
    clearInterval(countdownTimer);
    if (!seatName || !token) {
      refuse('This page needs its seat link: open the link or scan the code the GM gives your seat.');
      return;
    }
    setConnection(table.rev >= 0 ? 'reconnecting' : 'connecting', table.rev >= 0 ? 'Reconnecting…' : 'Connecting…');
    let ws;
    try {
      ws = new WebSocket(wsUrl());
    } catch (e) {
      scheduleRetry();
      return;
    }
    socket = ws;
    ws.onopen = () => {
      if (socket !== ws) return;
      ws.send(JSON.stringify({ type: 'join', seat: seatName, token: token }));
    };
    ws.onmessage = (event) => {
      if (socket !== ws) return;
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch (e) {
        return;
      }
      receive(msg);
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      clearInterval(pingTimer);
      if (table.pending) snapBack(null);
      if (battleUi.pending) battleAnswered(null);
      if (defenseUi.pending) defenseAnswered(null);
      if (table.refusedForGood) return;
      scheduleRetry();
    };
    ws.onerror = () => {};
  }

  function scheduleRetry() {
    let left = retryDelay;
    const tick = () => setConnection('reconnecting', 'Reconnecting in ' + Math.max(1, Math.ceil(left)) + ' s');
    tick();
    countdownTimer = setInterval(() => {
      left -= 1;
      tick();
    }, 1000);
    retryTimer = setTimeout(connect, retryDelay * 1000);
    retryDelay = Math.min(10, retryDelay * 2);
  }

  function send(msg) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(msg));
    return true;
  }

  function refuse(reason) {
    table.refusedForGood = true;
    setConnection('refused', 'Not joined');
    showMessage('Not joined', reason + ' This link no longer joins if the GM made a new one for your seat or hosts again: ' +
                'ask the GM for your seat\'s link.', 'refusal', true);
  }

  // [SECTION] Messages: snapshot, patch, ruling, battle, defense, refused

  function receive(msg) {
    switch (msg.type) {
      case 'snapshot':
        table.board = msg.map;
        table.rev = msg.rev;
        table.side = msg.side !== undefined ? msg.side : null;
        table.figureList = Array.isArray(msg.figures) ? msg.figures : null;
        table.sight = Array.isArray(msg.sight) ? msg.sight : null;
        table.pending = null;
        // A ruling whose figures are gone or stand elsewhere now is of a board that is no more.
        if (table.ruling && (cellKey(table.ruling.attacker) !== rulingCells.a || cellKey(table.ruling.defender) !== rulingCells.d)) {
          table.ruling = null;
          if (table.message && table.message.kind.lastIndexOf('ruling', 0) === 0) hidePanel();
        }
        if (table.selected && !findFigure(table.selected)) table.selected = null;
        rememberSight();
        retryDelay = 0.5;
        if (table.connection !== 'connected') {
          setConnection('connected', 'Connected');
          clearInterval(pingTimer);
          pingTimer = setInterval(() => send({ type: 'ping' }), 15000);
        }
        if (!fitted) fit();
        document.getElementById('seat').textContent = seatTitle();
        // A seat with no figure on the board (a team at a battle beside it) has none to drag.
        if (table.side !== '*' && !boardFigures().some((f) => isOwn(f)))
          document.getElementById('hint').textContent = 'None of your figures is on this board. Tap a figure for the cover ruling.';
        if (table.defense) renderDefense();  // its pickers are the board's figures
        draw();
        break;
      case 'patch':
        if (!table.board || msg.rev !== table.rev + 1 || !applyChange(msg.change)) {
          send({ type: 'snapshot' });  // out of step: the seat's board as it is
          return;
        }
        table.rev = msg.rev;
        if (Array.isArray(msg.sight)) {
          table.sight = msg.sight;
          rememberSight();
        }
        // The table changed under a drag: the dragged figure's reach again, for this revision.
        if (drag && table.reach && table.reach.figure === drag.id) send({ type: 'reach', figure: drag.id });
        if (table.pending) {
          const f = findFigure(table.pending.id);
          if (!f || f.cell[0] !== table.pending.from[0] || f.cell[1] !== table.pending.from[1]) table.pending = null;
        }
        // A ruling whose figures are gone or stand elsewhere now is of a board that is no more.
        if (table.ruling && (cellKey(table.ruling.attacker) !== rulingCells.a || cellKey(table.ruling.defender) !== rulingCells.d)) {
          table.ruling = null;
          hidePanel();
        }
        if (table.defense) renderDefense();
        draw();
        break;
      case 'reach':
        table.reach = msg;
        draw();
        break;
      case 'battle':
        if (!msg.battle || typeof msg.battle !== 'object') return;
        if (table.battle && table.battle.turn !== msg.battle.turn) battleUi.refusal = null;  // about the turn before
        table.battle = msg.battle;
        table.battleRev = typeof msg.rev === 'number' ? msg.rev : table.battleRev;
        if (battleUi.pending) battleAnswered(null);
        showBattle();
        break;
      case 'defense':
        if (!msg.defense || typeof msg.defense !== 'object') return;
        if (table.defense && JSON.stringify(table.defense.round) !== JSON.stringify(msg.defense.round)) defenseUi.refusal = null;  // about the round before
        table.defense = msg.defense;
        table.defenseRev = typeof msg.rev === 'number' ? msg.rev : table.defenseRev;
        defenseArrived();
        break;
      case 'ruling': {
        // Whether the pair has a line of sight, for the Defense panel (from any ruling of it at this
        // revision); the panel's own question is kept, not shown.
        const key = msg.attacker + '\n' + msg.defender;
        if (defenseUi.sight.rev === table.rev) defenseUi.sight.pairs.set(key, !!msg.line_of_sight);
        if (defenseUi.sightAsked.delete(key)) {
          if (table.defense) renderDefense();
          break;
        }
        table.ruling = msg;
        rulingCells = { a: cellKey(msg.attacker), d: cellKey(msg.defender) };
        showRuling(msg);
        draw();
        break;
      }
      case 'refused':
        if (msg.to === 'join' || table.rev < 0) {
          refuse(msg.reason || 'The host refused this seat.');
          return;
        }
        if (msg.to === 'move') snapBack(msg.reason);
        else if (msg.to === 'reach') table.reach = null;  // the drag goes on without a path
        else if (msg.to === 'battle_action') battleAnswered(msg.reason || 'Refused.');
        else if (msg.to === 'defense_action') defenseAnswered(msg.reason || 'Refused.');
        else if (msg.to === 'cover' && defenseUi.sightAsked.size) {
          // The panel's question refused: not asked again at this revision, Reveal left to the host.
          for (const k of defenseUi.sightAsked) if (defenseUi.sight.rev === table.rev) defenseUi.sight.pairs.set(k, null);
          defenseUi.sightAsked.clear();
        }
        else showMessage('Refused', msg.reason || '', 'refusal');
        draw();
        break;
      default:
        break;
    }
  }

  function snapBack(reason) {
    const p = table.pending;
    table.pending = null;
    if (reason) showMessage(p ? 'Move refused' : 'Refused', reason, 'refusal');
  }

  const kinds = ['walls', 'doors', 'features', 'figures'];

  // A patch's change, applied to the seat's board as the host's table applies it; false when it
  // does not apply (the page then asks for the whole board).
  function applyChange(change) {
    if (!change || typeof change !== 'object') return false;
    if (change.type === 'replace_board') {
      if (!change.map || typeof change.map !== 'object') return false;
      table.board = change.map;
      return true;
    }
    if (change.type === 'set_map_key') {
      // One of the map's own keys (the round tracker's "tracker", "background"): set, or erased.
      const own = ['format', 'version', 'name', 'grid', 'terrain', 'walls', 'doors', 'features', 'figures', 'rules'];
      if (typeof change.key !== 'string' || !change.key || own.includes(change.key)) return false;
      // The value as the table's commands carry a key's: its JSON text (null: erased).
      if (change.value === null || change.value === undefined) {
        delete table.board[change.key];
        return true;
      }
      if (typeof change.value !== 'string') return false;
      try {
        table.board[change.key] = JSON.parse(change.value);
      } catch (e) {
        return false;
      }
      return true;
    }
    if (change.type !== 'change_pieces') return false;
    const b = table.board;
    for (const k of kinds) if (!Array.isArray(b[k])) b[k] = [];
    const remove = change.remove || {};
    for (const k of kinds) {
      if (!remove[k]) continue;
      const gone = new Set(remove[k]);
      b[k] = b[k].filter((p) => !gone.has(p.id));
    }
    const update = change.update || {};
    for (const k of kinds) {
      for (const piece of update[k] || []) {
        const i = b[k].findIndex((p) => p.id === piece.id);
        if (i < 0) return false;
        b[k][i] = piece;
      }
    }
    const add = change.add || {};
    const before = change.add_before || {};
    for (const k of kinds) {
      const list = add[k] || [];
      for (let i = 0; i < list.length; ++i) {
        const at = before[k] && before[k][i] ? b[k].findIndex((p) => p.id === before[k][i]) : -1;
        if (at < 0) b[k].push(list[i]);
        else b[k].splice(at, 0, list[i]);
      }
    }
    if (Array.isArray(change.terrain)) b.terrain = change.terrain;
    return true;
  }

  // Where a figure stands, as text ('' when it is not on the seat's board): a ruling is of the
  // figures where they stood when it was asked (rulingCells).
  let rulingCells = { a: '', d: '' };
  function cellKey(id) {
    const f = findFigure(id);
    return f && Array.isArray(f.cell) ? f.cell.join(',') : '';
  }

  function findFigure(id) {
    if (!table.board || !Array.isArray(table.board.figures)) return null;
    return table.board.figures.find((f) => f.id === id) || null;
  }

  function isOwn(f) {
    if (table.side === '*') return true;
    if (table.figureList) return table.figureList.includes(f.id);
    return table.side !== null && f.side === table.side;
  }

  function sizeOf(f) {
    return Array.isArray(f.size) ? f.size : [1, 1];
  }

  function seatTitle() {
    if (table.side === '*') return 'GM (' + seatName + ')';
    return seatName + (table.side && table.side !== seatName ? ' (' + table.side + ')' : '');
  }

  // What the seat has seen, kept as a picture of the board at a few pixels a cell: parts seen
  // before are drawn dimmer than parts never seen. The picture is kept in the tab's session storage
  // (this browser tab only, gone when it closes), so that a reload or a dropped phone screen does not
  // forget it; it holds only what the host sent this seat.
  let explored = null;
  let keptTimer = null;
  function exploredKey() {
    const g = (table.board && table.board.grid) || { width: 1, height: 1 };
    return 'sightline-explored:' + location.host + ':' + seatName + ':' + g.width + 'x' + g.height;
  }
  // The picture as runs of unseen and seen pixels, row after row (base 36, comma-separated): a few
  // kilobytes for a board's worth of rooms, and read back without loading an image.
  function exploredRuns() {
    const data = explored.getContext('2d').getImageData(0, 0, explored.width, explored.height).data;
    const runs = [];
    let lit = false, run = 0;
    for (let i = 3; i < data.length; i += 4) {
      if ((data[i] > 127) !== lit) {
        runs.push(run.toString(36));
        lit = !lit;
        run = 0;
      }
      run++;
    }
    runs.push(run.toString(36));
    return explored.width + 'x' + explored.height + ':' + runs.join(',');
  }
  function restoreRuns(text) {
    const m = /^(\d+)x(\d+):([0-9a-z,]+)$/.exec(text || '');
    if (!m || +m[1] !== explored.width || +m[2] !== explored.height) return false;
    const picture = new ImageData(explored.width, explored.height);
    const total = explored.width * explored.height;
    let at = 0, lit = false;
    for (const r of m[3].split(',')) {
      const n = parseInt(r, 36);
      if (!(n >= 0) || at + n > total) return false;
      if (lit) for (let k = at; k < at + n; k++) picture.data.fill(255, 4 * k, 4 * k + 4);
      at += n;
      lit = !lit;
    }
    const scratch = document.createElement('canvas');
    scratch.width = explored.width;
    scratch.height = explored.height;
    scratch.getContext('2d').putImageData(picture, 0, 0);
    explored.getContext('2d').drawImage(scratch, 0, 0);
    return true;
  }
  function keepExplored() {  // at most once a second
    if (keptTimer) return;
    keptTimer = setTimeout(() => {
      keptTimer = null;
      try {
        sessionStorage.setItem(exploredKey(), exploredRuns());
      } catch (e) {
        // Storage full or refused (a private window): the picture lasts while the page is open.
      }
    }, 1000);
  }
  function rememberSight() {
    if (!table.board || !table.sight) return;
    const g = table.board.grid || { width: 1, height: 1 };
    const per = Math.max(2, Math.min(16, Math.floor(2048 / Math.max(g.width, g.height))));
    if (!explored || explored.width !== g.width * per || explored.height !== g.height * per) {
      explored = document.createElement('canvas');
      explored.width = g.width * per;
      explored.height = g.height * per;
      explored.per = per;
      let kept = null;
      try {
        kept = sessionStorage.getItem(exploredKey());
      } catch (e) {
        kept = null;
      }
      explored.restored = !!kept && restoreRuns(kept);
    }
    const c = explored.getContext('2d');
    c.fillStyle = '#fff';
    c.beginPath();
    for (const ring of table.sight) ringPath(c, ring, (x) => x * per, (y) => y * per);
    c.fill('nonzero');
    keepExplored();
  }
  // The explored picture's area in square cells (for the test hook).
  function exploredArea() {
    if (!explored) return 0;
    const data = explored.getContext('2d').getImageData(0, 0, explored.width, explored.height).data;
    let lit = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 127) lit++;
    return lit / (explored.per * explored.per);
  }

  // [SECTION] The view: where the board is on the screen

  const canvas = document.getElementById('board');
  const ctx = canvas.getContext('2d');
  const fog = document.createElement('canvas');
  const view = { scale: 32, ox: 0, oy: 0 }; // CSS pixels a cell; where cell (0, 0)'s corner is
  let fitted = false;
  // Whether the player zoomed or panned since the board was last fitted: a change of the board's room
  // (a phone turned, a panel shown) fits it again where not, and keeps the middle of the view where so.
  let moved = false;
  let room = null;  // the canvas's size in CSS pixels when last drawn for, { w, h }

  function cssSize() {
    const r = canvas.getBoundingClientRect();
    return { w: r.width, h: r.height };
  }

  function fit() {
    if (!table.board || !table.board.grid) return;
    const { w, h } = cssSize();
    if (w < 1 || h < 1) return;  // the board not on the screen (a phone showing the battle): fitted when it is
    const g = table.board.grid;
    const margin = 12;
    // Above the hint while it is shown (it lies over the board's bottom).
    const hintEl = document.getElementById('hint');
    const below = hintEl && !hintEl.hidden ? Math.min(h / 3, hintEl.getBoundingClientRect().height + 8) : 0;
    const room = h - below;
    view.scale = Math.max(4, Math.min((w - 2 * margin) / g.width, (room - 2 * margin) / g.height));
    view.ox = (w - g.width * view.scale) / 2;
    view.oy = (room - g.height * view.scale) / 2;
    fitted = true;
    moved = false;
    draw();
  }

  function zoomAt(factor, cx, cy) {
    const s = Math.max(4, Math.min(200, view.scale * factor));
    const k = s / view.scale;
    view.ox = cx - (cx - view.ox) * k;
    view.oy = cy - (cy - view.oy) * k;
    view.scale = s;
    moved = true;
    draw();
  }

  const toScreenX = (x) => view.ox + x * view.scale;
  const toScreenY = (y) => view.oy + y * view.scale;
  const toBoard = (px, py) => [(px - view.ox) / view.scale, (py - view.oy) / view.scale];

  function resize() {
    const dpr = window.devicePixelRatio || 1;
    const { w, h } = cssSize();
    canvas.width = Math.max(1, Math.round(w * dpr));
    canvas.height = Math.max(1, Math.round(h * dpr));
    if (w < 1 || h < 1) {  // hidden (a phone showing a panel): the view is kept for when it is back
      draw();
      return;
    }
    const before = room;
    room = { w: w, h: h };
    if (!fitted || (!moved && before && (before.w !== w || before.h !== h))) fit();
    else if (before && before.w > 0 && before.h > 0 && (before.w !== w || before.h !== h)) {
      // The point of the board in the middle of the view stays in the middle.
      view.ox += (w - before.w) / 2;
      view.oy += (h - before.h) / 2;
    }
    draw();
  }

  // [SECTION] Drawing

  const drawn = { figures: [], fogRings: 0, rulingLines: 0, walls: 0, doors: 0, features: 0, terrainCells: 0, background: null };

  // The pictures the table names ("/picture/..." on this host: a token's, the map's background),
  // each fetched once; the board is drawn again as each arrives. One that fails keeps its disc.
  const pictures = new Map();
  function picture(name) {
    if (typeof name !== 'string' || !/^\/picture\/[0-9a-f]{32}\.(png|jpe?g|webp)$/.test(name)) return null;
    let p = pictures.get(name);
    if (!p) {
      const img = new Image();
      p = { img: img, ready: false, failed: false };
      img.onload = () => { p.ready = true; draw(); };
      img.onerror = () => { p.failed = true; };
      img.src = name;
      pictures.set(name, p);
    }
    return p.ready ? p.img : null;
  }

  // The map's background picture and where it lies (docs/map-format.md): stretched over the grid,
  // or pixels_per_cell and offset.
  function backgroundPlace(b, img) {
    // A placement out of its bounds (docs/map-format.md) is left out, as the app does: stretched.
    const bg = b.background;
    const ppc = bg && bg.pixels_per_cell;
    const off = bg && bg.offset !== undefined ? bg.offset : [0, 0];
    const inBounds = (v) => typeof v === 'number' && isFinite(v) && Math.abs(v) <= 4096;
    if (typeof ppc === 'number' && isFinite(ppc) && ppc >= 0.001 && ppc <= 100000 &&
        Array.isArray(off) && off.length === 2 && inBounds(off[0]) && inBounds(off[1])) {
      return [off[0], off[1], img.naturalWidth / ppc, img.naturalHeight / ppc];
    }
    return [0, 0, b.grid.width, b.grid.height];
  }

  // A side's colour as the app draws it (app/view/board_view.cpp, palette::side), so that a side
  // looks the same on every screen at the table: marines and invaders their own, another side one
  // of five picked by FNV-1a over its name's UTF-8 bytes in 64 bits (done here in 16-bit limbs).
  const kOtherSides = ['rgb(32, 168, 176)', 'rgb(184, 120, 62)', 'rgb(226, 104, 168)', 'rgb(112, 128, 184)', 'rgb(40, 120, 200)'];
  function sideColour(side) {
    const name = String(side || '');
    if (name === 'marines') return 'rgb(66, 135, 245)';
    if (name === 'invaders') return 'rgb(176, 82, 204)';
    if (name === '') return 'rgb(140, 140, 150)';
    let l = [0x9dc5, 0x811c, 0, 0];  // 2166136261, lowest limb first
    for (const b of new TextEncoder().encode(name)) {
      l[0] ^= b;
      const r = [0, 0, 0, 0];  // times 16777619 = 0x0100 0193, modulo 2^64
      let carry = 0;
      for (let k = 0; k < 4; ++k) {
        const v = carry + l[k] * 0x0193 + (k > 0 ? l[k - 1] * 0x0100 : 0);
        r[k] = v % 65536;
        carry = Math.floor(v / 65536);
      }
      l = r;
    }
    let rest = 0;
    for (let k = 3; k >= 0; --k) rest = (rest * 65536 + l[k]) % kOtherSides.length;
    return kOtherSides[rest];
  }

  function ringPath(c, ring, fx, fy) {
    if (!Array.isArray(ring) || ring.length < 3) return;
    c.moveTo(fx(ring[0][0]), fy(ring[0][1]));
    for (let i = 1; i < ring.length; ++i) c.lineTo(fx(ring[i][0]), fy(ring[i][1]));
    c.closePath();
  }

  // Where a figure is drawn: where it stands, or where it was dragged to or sent.
  function shownCell(f) {
    if (drag && drag.id === f.id) return drag.cell;
    if (table.pending && table.pending.id === f.id) return table.pending.to;
    return f.cell;
  }

  // At the next frame; a page in a tab behind others gets no frames, so a timer draws it too (the
  // board is right whenever the tab comes back, and the test hook reads what was drawn).
  let frameAsked = false;
  function draw() {
    if (frameAsked) return;
    frameAsked = true;
    const go = () => {
      if (!frameAsked) return;
      frameAsked = false;
      paint();
    };
    requestAnimationFrame(go);
    setTimeout(go, 100);
  }

  // The round tracker as the seat knows it: the round, and the turn when it is one of its own.
  function showRound() {
    const t = table.board && table.board.tracker;
    const el = document.getElementById('round');
    const text = t && typeof t.round === 'number' && t.round > 0
      ? 'Round ' + t.round + (typeof t.turn === 'string' ? ' · your turn: ' + t.turn : '') : '';
    drawn.round = text || null;
    if (el.textContent !== text) el.textContent = text;
    el.hidden = !text;
    el.classList.toggle('mine', !!(t && typeof t.turn === 'string'));
  }

  function paint() {
    showRound();
    const dpr = window.devicePixelRatio || 1;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const { w, h } = cssSize();
    ctx.clearRect(0, 0, w, h);
    drawn.figures = [];
    drawn.path = null;
    drawn.pathLabel = null;
    drawn.fogRings = 0;
    drawn.rulingLines = 0;
    drawn.walls = drawn.doors = drawn.features = drawn.terrainCells = 0;
    const b = table.board;
    if (!b || !b.grid) return;
    const s = view.scale;
    const W = b.grid.width, H = b.grid.height;

    // The board, its picture and its grid.
    ctx.fillStyle = '#2b3038';
    ctx.fillRect(toScreenX(0), toScreenY(0), W * s, H * s);
    const bgPicture = b.background ? picture(b.background.image) : null;
    drawn.background = null;
    if (bgPicture) {
      const [bx, by, bw, bh] = backgroundPlace(b, bgPicture);
      ctx.save();
      ctx.beginPath();
      ctx.rect(toScreenX(0), toScreenY(0), W * s, H * s);
      ctx.clip();
      ctx.drawImage(bgPicture, toScreenX(bx), toScreenY(by), bw * s, bh * s);
      ctx.restore();
      drawn.background = { image: b.background.image, cells: [bx, by, bw, bh] };
    }
    // Terrain: what stops sight is drawn over the fog (the seat knows its map), the rest under it.
    const terrainColour = { blocking: '#6a717e', difficult: 'rgba(190, 150, 60, 0.45)', impassable: '#0c0d10' };
    const paintTerrain = (over) => {
      for (const group of b.terrain || []) {
        if ((group.kind === 'blocking') !== over) continue;
        ctx.fillStyle = terrainColour[group.kind] || '#444';
        for (const cell of group.cells || []) {
          ctx.fillRect(toScreenX(cell[0]), toScreenY(cell[1]), s, s);
          drawn.terrainCells++;
        }
      }
    };
    paintTerrain(false);
    if (s >= 8) {
      ctx.strokeStyle = 'rgba(255, 255, 255, 0.08)';
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let x = 0; x <= W; ++x) {
        ctx.moveTo(Math.round(toScreenX(x)) + 0.5, toScreenY(0));
        ctx.lineTo(Math.round(toScreenX(x)) + 0.5, toScreenY(H));
      }
      for (let y = 0; y <= H; ++y) {
        ctx.moveTo(toScreenX(0), Math.round(toScreenY(y)) + 0.5);
        ctx.lineTo(toScreenX(W), Math.round(toScreenY(y)) + 0.5);
      }
      ctx.stroke();
    }
    const paintFeatures = (over) => {
      for (const f of b.features || []) {
        if (!Array.isArray(f.polygon) || !!f.blocks_sight !== over) continue;
        ctx.beginPath();
        ringPath(ctx, f.polygon, toScreenX, toScreenY);
        ctx.fillStyle = f.blocks_sight ? 'rgba(120, 128, 140, 0.85)' : 'rgba(140, 170, 110, 0.35)';
        ctx.fill();
        ctx.strokeStyle = 'rgba(220, 230, 200, 0.7)';
        ctx.lineWidth = 1.5;
        ctx.stroke();
        drawn.features++;
      }
    };
    paintFeatures(false);

    // Fog: never seen darkest, seen before dimmer, seen now clear (the GM's seat sees all). Drawn
    // on a canvas of its own, from which what is seen is cut (the outlines' union: all run the
    // same way round, so the nonzero rule joins them).
    if (table.sight) {
      if (fog.width !== canvas.width || fog.height !== canvas.height) {
        fog.width = canvas.width;
        fog.height = canvas.height;
      }
      const fc = fog.getContext('2d');
      fc.setTransform(1, 0, 0, 1, 0, 0);
      fc.globalCompositeOperation = 'source-over';
      fc.globalAlpha = 1;
      fc.clearRect(0, 0, fog.width, fog.height);
      fc.setTransform(dpr, 0, 0, dpr, 0, 0);
      fc.fillStyle = 'rgba(6, 7, 10, 0.86)';
      fc.fillRect(toScreenX(0), toScreenY(0), W * s, H * s);
      fc.globalCompositeOperation = 'destination-out';
      if (explored) {
        fc.globalAlpha = 0.4;
        fc.imageSmoothingEnabled = true;
        fc.drawImage(explored, toScreenX(0), toScreenY(0), W * s, H * s);
        fc.globalAlpha = 1;
      }
      fc.beginPath();
      for (const ring of table.sight) {
        ringPath(fc, ring, toScreenX, toScreenY);
        drawn.fogRings++;
      }
      fc.fill('nonzero');
      ctx.save();
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.drawImage(fog, 0, 0);
      ctx.restore();
    }

    paintTerrain(true);
    paintFeatures(true);

    // Walls and doors over the fog: the seat knows its map.
    ctx.lineCap = 'round';
    ctx.strokeStyle = '#ece6d4';
    ctx.lineWidth = Math.max(2.5, s * 0.12);
    ctx.beginPath();
    for (const wall of b.walls || []) {
      ctx.moveTo(toScreenX(wall.from[0]), toScreenY(wall.from[1]));
      ctx.lineTo(toScreenX(wall.to[0]), toScreenY(wall.to[1]));
      drawn.walls++;
    }
    ctx.stroke();
    for (const d of b.doors || []) {
      ctx.beginPath();
      ctx.moveTo(toScreenX(d.from[0]), toScreenY(d.from[1]));
      ctx.lineTo(toScreenX(d.to[0]), toScreenY(d.to[1]));
      if (d.open) {
        ctx.setLineDash([Math.max(3, s * 0.15), Math.max(3, s * 0.15)]);
        ctx.strokeStyle = 'rgba(214, 160, 90, 0.8)';
        ctx.lineWidth = Math.max(1.5, s * 0.06);
      } else {
        ctx.setLineDash([]);
        ctx.strokeStyle = d.window ? '#8fc3e8' : '#c98a44';
        ctx.lineWidth = Math.max(3, s * 0.16);
      }
      ctx.stroke();
      ctx.setLineDash([]);
      drawn.doors++;
    }

    // The ruling's lines: clear green, stopped red, from the attacker's corner.
    const r = table.ruling;
    if (r && Array.isArray(r.lines)) {
      ctx.lineWidth = Math.max(1.5, s * 0.05);
      for (const line of r.lines) {
        ctx.strokeStyle = line.blocked ? '#ff6b60' : '#6fe08c';
        ctx.beginPath();
        ctx.moveTo(toScreenX(line.from[0]), toScreenY(line.from[1]));
        ctx.lineTo(toScreenX(line.to[0]), toScreenY(line.to[1]));
        ctx.stroke();
        drawn.rulingLines++;
      }
    }

    // Each label's room: as wide as the gap to the nearest figure beside it (a label's half within
    // half the gap, so two neighbours' never meet), at most about two cells of its figure's width.
    const centres = (b.figures || []).map((f) => {
      const [fw, fh] = sizeOf(f);
      const cell = shownCell(f);
      return { id: f.id, x: toScreenX(cell[0] + fw / 2), y: toScreenY(cell[1] + fh / 2) };
    });
    const labelRoom = (id, x, y, px) => {
      let room = Infinity;
      for (const c of centres)
        if (c.id !== id && Math.abs(c.y - y) < px * 1.5) room = Math.min(room, Math.abs(c.x - x) - 4);
      return Math.max(0, room);
    };

    // Figures: a disc in the side's colour, the seat's own ringed in white.
    for (const f of b.figures || []) {
      const [fw, fh] = sizeOf(f);
      const cell = shownCell(f);
      const cx = toScreenX(cell[0] + fw / 2), cy = toScreenY(cell[1] + fh / 2);
      const rad = Math.max(6, s * Math.min(fw, fh) * 0.42);
      const own = isOwn(f);
      ctx.beginPath();
      ctx.arc(cx, cy, rad, 0, Math.PI * 2);
      ctx.fillStyle = sideColour(f.side);
      ctx.globalAlpha = table.pending && table.pending.id === f.id ? 0.6 : 1;
      ctx.fill();
      // Its picture inside its side's ring, the middle square of it.
      const img = picture(f.image);
      if (img && rad >= 6) {
        const inner = rad - Math.max(2, rad * 0.16);
        const side = Math.min(img.naturalWidth, img.naturalHeight);
        ctx.save();
        ctx.beginPath();
        ctx.arc(cx, cy, inner, 0, Math.PI * 2);
        ctx.clip();
        ctx.drawImage(img, (img.naturalWidth - side) / 2, (img.naturalHeight - side) / 2, side, side, cx - inner, cy - inner, inner * 2, inner * 2);
        ctx.restore();
        ctx.beginPath();  // the ring below is the disc's edge again
        ctx.arc(cx, cy, rad, 0, Math.PI * 2);
      }
      ctx.globalAlpha = 1;
      ctx.lineWidth = own ? Math.max(2, s * 0.08) : 1.5;
      ctx.strokeStyle = own ? '#ffffff' : 'rgba(0, 0, 0, 0.7)';
      ctx.stroke();
      // Its health as the round tracker keeps it, where the seat may know it (its own figures).
      const hp = typeof f.hp === 'number' && typeof f.hp_max === 'number' && f.hp_max > 0 ? [f.hp, f.hp_max] : null;
      if (hp) {
        const frac = Math.max(0, Math.min(1, hp[0] / hp[1]));
        const bw = rad * 1.6, bh = Math.max(3, rad * 0.18), bx = cx - bw / 2, by = cy + rad * 0.62;
        ctx.fillStyle = 'rgba(0, 0, 0, 0.8)';
        ctx.fillRect(bx - 1, by - 1, bw + 2, bh + 2);
        ctx.fillStyle = frac > 0.5 ? '#4cb25a' : frac > 0.25 ? '#d8a626' : '#cc4034';
        ctx.fillRect(bx, by, bw * frac, bh);
      }
      // Whose turn it is (the round tracker tells the seat of its own figures' turns): a blue ring.
      const turn = !!(b.tracker && b.tracker.turn === f.id);
      if (turn) {
        ctx.beginPath();
        ctx.arc(cx, cy, rad + Math.max(6, s * 0.16), 0, Math.PI * 2);
        ctx.strokeStyle = '#4aa3ff';
        ctx.lineWidth = Math.max(2.5, s * 0.07);
        ctx.stroke();
      }
      if (table.selected === f.id || (r && (r.attacker === f.id || r.defender === f.id))) {
        ctx.beginPath();
        ctx.arc(cx, cy, rad + Math.max(3, s * 0.08), 0, Math.PI * 2);
        ctx.strokeStyle = table.selected === f.id ? '#f0c054' : 'rgba(240, 192, 84, 0.6)';
        ctx.lineWidth = 2;
        ctx.stroke();
      }
      let label = null;
      if (s >= 20) {  // below, a label is a letter or two over its neighbours': the panel names a figure tapped
        const px = Math.max(10, Math.min(14, s * 0.3));
        ctx.font = '600 ' + px + 'px system-ui, sans-serif';
        // The whole id where it fits in its room, else cut to it with an ellipsis.
        const most = Math.min(fw * s * 1.9, labelRoom(f.id, cx, cy, px));
        label = f.id;
        if (ctx.measureText(label).width > most) {
          while (label.length > 1 && ctx.measureText(label + '…').width > most) label = label.slice(0, -1);
          label += '…';
        }
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.lineWidth = 3;
        ctx.strokeStyle = 'rgba(0, 0, 0, 0.75)';
        // Over a plain disc in its middle; under a picture, which it would hide.
        // (Over its lower edge where a figure stands in the row below, whose token it would cover.)
        const crowded = centres.some((c) => c.id !== f.id && Math.abs(c.x - cx) < s * 0.9 && c.y > cy && c.y - cy < fh * s * 0.5 + s * 0.6);
        const ly = img && rad >= 6 ? (crowded ? cy + rad - px * 0.6 : cy + rad + px * 0.7) : cy;
        ctx.strokeText(label, cx, ly);
        ctx.fillStyle = '#fff';
        ctx.fillText(label, cx, ly);
      }
      drawn.figures.push({ id: f.id, side: f.side, own: own, cell: cell.slice(), size: [fw, fh], x: cx, y: cy, r: rad, hp: hp, picture: img && rad >= 6 ? f.image : null, turn: turn, label: label });
    }
    if (drag) paintPath(s);
    if (drag) {
      const [fw, fh] = drag.size;
      ctx.strokeStyle = drag.inside ? '#f0c054' : '#ff6b60';
      ctx.lineWidth = 2;
      ctx.setLineDash([6, 4]);
      ctx.strokeRect(toScreenX(drag.cell[0]), toScreenY(drag.cell[1]), fw * s, fh * s);
      ctx.setLineDash([]);
    }
  }

  // The dragged figure's path from where it stood and what it costs, read from the host's reach
  // (each place with its cost and the place before it): "cost 3 of 6", or "beyond its move".
  function reachPath(r, cell) {
    const at = r.cells.findIndex((c) => c[0] === cell[0] && c[1] === cell[1]);
    if (at < 0) return null;
    const path = [];
    for (let i = at, guard = 0; i >= 0 && guard <= r.cells.length; i = r.cells[i][3], ++guard) path.push([r.cells[i][0], r.cells[i][1]]);
    path.reverse();
    return { path: path, cost: r.cells[at][2], end: r.cells[at][4] === 1 };
  }

  function paintPath(s) {
    const r = table.reach;
    if (!r || r.figure !== drag.id || r.rev !== table.rev || r.budget === null) return;
    if (drag.cell[0] === drag.from[0] && drag.cell[1] === drag.from[1]) return;
    const [fw, fh] = drag.size;
    const found = reachPath(r, drag.cell);
    const end = [toScreenX(drag.cell[0] + fw / 2), toScreenY(drag.cell[1] + fh / 2)];
    if (found) {
      ctx.strokeStyle = '#f0c054';
      ctx.lineWidth = Math.max(2, s * 0.12);
      ctx.lineJoin = 'round';
      ctx.beginPath();
      found.path.forEach((c, i) => {
        const x = toScreenX(c[0] + fw / 2), y = toScreenY(c[1] + fh / 2);
        if (i === 0) ctx.moveTo(x, y);
        else ctx.lineTo(x, y);
      });
      ctx.stroke();
      drawn.path = found.path;
      drawn.pathLabel = found.end ? 'cost ' + found.cost + ' of ' + r.budget : 'a friend stands there';
    } else {
      drawn.pathLabel = 'beyond its move (' + r.budget + ')';
    }
    ctx.font = 'bold 14px sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    ctx.lineWidth = 4;
    ctx.strokeStyle = '#111';
    ctx.strokeText(drawn.pathLabel, end[0], end[1] - fh * s / 2 - 4);
    ctx.fillStyle = found && found.end ? '#f0c054' : '#ff6b60';
    ctx.fillText(drawn.pathLabel, end[0], end[1] - fh * s / 2 - 4);
  }

  // [SECTION] Touch and mouse

  const pointers = new Map();  // pointerId -> {x, y}
  let drag = null;    // {id, grab: [dx, dy], cell, from, size, inside}
  let press = null;   // {x, y, id, moved}: a press that may be a tap
  let pinch = null;   // {dist, mx, my, scale, ox, oy}

  function localPoint(e) {
    const r = canvas.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  // The figure pressed: the one whose footprint holds the point (the last drawn, on top, where two
  // do), else the nearest within a thumb's reach of its middle (on a phone's small cells the reach
  // spans the neighbours': the nearest, not the last drawn, is the one meant).
  function figureAt(px, py) {
    const s = view.scale;
    for (let i = drawn.figures.length - 1; i >= 0; --i) {
      const d = drawn.figures[i];
      const x0 = toScreenX(d.cell[0]), y0 = toScreenY(d.cell[1]);
      if (px >= x0 && px < x0 + d.size[0] * s && py >= y0 && py < y0 + d.size[1] * s) return d;
    }
    let best = null, bestDist = Infinity;
    for (const d of drawn.figures) {
      const reach = Math.max(d.r, 22);  // a thumb's reach, even on small figures
      const dist = (px - d.x) ** 2 + (py - d.y) ** 2;
      if (dist <= reach * reach && dist < bestDist) {
        best = d;
        bestDist = dist;
      }
    }
    return best;
  }

  // The door nearest the point within a finger's reach (screen pixels), or null.
  function doorAt(px, py) {
    let best = null, bestDist = Math.max(12, view.scale * 0.25);
    for (const d of (table.board && table.board.doors) || []) {
      if (!Array.isArray(d.from) || !Array.isArray(d.to)) continue;
      const ax = toScreenX(d.from[0]), ay = toScreenY(d.from[1]), bx = toScreenX(d.to[0]), by = toScreenY(d.to[1]);
      const len2 = (bx - ax) ** 2 + (by - ay) ** 2;
      const t = len2 > 0 ? Math.max(0, Math.min(1, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / len2)) : 0;
      const dist = Math.hypot(px - (ax + t * (bx - ax)), py - (ay + t * (by - ay)));
      if (dist <= bestDist) {
        best = d;
        bestDist = dist;
      }
    }
    return best;
  }

  function startPinch() {
    const [a, b] = [...pointers.values()];
    pinch = {
      dist: Math.hypot(a.x - b.x, a.y - b.y) || 1,
      mx: (a.x + b.x) / 2,
      my: (a.y + b.y) / 2,
      scale: view.scale,
      ox: view.ox,
      oy: view.oy,
    };
  }

  canvas.addEventListener('pointerdown', (e) => {
    const p = localPoint(e);
    pointers.set(e.pointerId, p);
    try { canvas.setPointerCapture(e.pointerId); } catch (err) { /* a synthetic pointer */ }
    if (pointers.size === 2) {
      drag = null;  // a second finger: the board is pinched, the figure stays
      press = null;
      startPinch();
      draw();
      return;
    }
    if (pointers.size > 2) return;
    const hit = figureAt(p.x, p.y);
    press = { x: p.x, y: p.y, id: hit ? hit.id : null, moved: false, ox: view.ox, oy: view.oy };
    const f = hit ? findFigure(hit.id) : null;
    if (f && isOwn(f) && !table.pending && table.connection === 'connected') {
      const [bx, by] = toBoard(p.x, p.y);
      drag = { id: f.id, grab: [bx - f.cell[0], by - f.cell[1]], cell: f.cell.slice(), from: f.cell.slice(), size: sizeOf(f), inside: true };
      // Where it can get to, once a revision: the path and its cost follow the finger.
      if (!table.reach || table.reach.figure !== f.id || table.reach.rev !== table.rev) send({ type: 'reach', figure: f.id });
    }
    e.preventDefault();
  });

  canvas.addEventListener('pointermove', (e) => {
    if (!pointers.has(e.pointerId)) return;
    const p = localPoint(e);
    pointers.set(e.pointerId, p);
    if (pinch && pointers.size >= 2) {
      const [a, b] = [...pointers.values()];
      const dist = Math.hypot(a.x - b.x, a.y - b.y) || 1;
      const mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2;
      const s = Math.max(4, Math.min(200, pinch.scale * dist / pinch.dist));
      const k = s / pinch.scale;
      view.scale = s;
      view.ox = mx - (pinch.mx - pinch.ox) * k;
      view.oy = my - (pinch.my - pinch.oy) * k;
      moved = true;
      draw();
      return;
    }
    if (!press) return;
    if (Math.hypot(p.x - press.x, p.y - press.y) > 8) press.moved = true;
    if (drag) {
      const [bx, by] = toBoard(p.x, p.y);
      const g = table.board.grid;
      const x = Math.round(bx - drag.grab[0]), y = Math.round(by - drag.grab[1]);
      drag.inside = x >= 0 && y >= 0 && x + drag.size[0] <= g.width && y + drag.size[1] <= g.height;
      drag.cell = [Math.min(Math.max(x, 0), g.width - drag.size[0]), Math.min(Math.max(y, 0), g.height - drag.size[1])];
      draw();
    } else if (press.moved) {
      view.ox = press.ox + (p.x - press.x);  // one finger on the board pans it
      view.oy = press.oy + (p.y - press.y);
      moved = true;
      draw();
    }
  });

  function endPointer(e, cancelled) {
    if (!pointers.has(e.pointerId)) return;
    pointers.delete(e.pointerId);
    if (pinch) {
      if (pointers.size < 2) pinch = null;
      if (pointers.size === 1) {  // one finger left: it pans from here
        const [q] = [...pointers.values()];
        press = { x: q.x, y: q.y, id: null, moved: true, ox: view.ox, oy: view.oy };
      } else press = null;
      return;
    }
    const pr = press, dr = drag;
    press = null;
    drag = null;
    if (cancelled || !pr) {
      draw();
      return;
    }
    if (dr && pr.moved) {
      if (!dr.inside) {
        // Let go off the board (drawn red while held there): not moved, rather than to the edge.
        showMessage('Not moved', dr.id + ' was let go off the board, and stays where it was.', 'refusal');
      } else if (dr.cell[0] !== dr.from[0] || dr.cell[1] !== dr.from[1]) {
        // An older move's refusal is not this one's; a ruling of the figure moved is of where it stood.
        if (table.message && (table.message.kind === 'refusal' ||
            (table.ruling && (table.ruling.attacker === dr.id || table.ruling.defender === dr.id)))) {
          table.ruling = null;
          hidePanel();
        }
        table.pending = { id: dr.id, to: dr.cell.slice(), from: dr.from.slice() };
        // A player's figure moved is its attacker; the GM's pick stays what the GM picked.
        if (table.side !== '*') table.selected = dr.id;
        if (!send({ type: 'move', figure: dr.id, to: dr.cell, rev: table.rev })) snapBack('Not connected: the move was not sent.');
      }
    } else if (!pr.moved && pr.id) {
      tapFigure(pr.id);
    } else if (!pr.moved) {
      // A door tapped: the GM's to open or close, said rather than nothing happening.
      const door = doorAt(pr.x, pr.y);
      if (door) showMessage('Door ' + door.id, (door.open ? 'Open. ' : 'Closed. ') + 'The GM opens and closes doors.', 'info');
    }
    if ((dr && pr.moved) || (!pr.moved && pr.id)) hint.hidden = true;  // the player has found out how
    draw();
  }
  canvas.addEventListener('pointerup', (e) => endPointer(e, false));
  canvas.addEventListener('pointercancel', (e) => endPointer(e, true));

  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    const p = localPoint(e);
    zoomAt(Math.exp(-e.deltaY * 0.0015), p.x, p.y);
  }, { passive: false });

  // A tap on one's own figure picks it as the attacker; on another, asks the ruling between them.
  function tapFigure(id) {
    const f = findFigure(id);
    if (!f) return;
    if (isOwn(f) && table.side !== '*') {
      table.selected = id;
      showMessage(id + ' picked', 'Tap another figure for the cover ruling with ' + id + ' attacking.', 'info');
      return;
    }
    if (table.side === '*' && (!table.selected || table.selected === id)) {
      table.selected = id;
      showMessage(id + ' picked', 'Tap another figure for the cover ruling with ' + id + ' attacking; close this to pick another attacker.', 'info');
      return;
    }
    let attacker = table.selected && findFigure(table.selected) ? table.selected : null;
    if (!attacker) {
      // The seat's figure nearest the one tapped.
      let best = Infinity;
      for (const g of table.board.figures) {
        if (!isOwn(g)) continue;
        const d = (g.cell[0] - f.cell[0]) ** 2 + (g.cell[1] - f.cell[1]) ** 2;
        if (d < best) {
          best = d;
          attacker = g.id;
        }
      }
    }
    if (!attacker) {
      showMessage('No figure of yours', 'This seat has no figure on the board to attack with.', 'refusal');
      return;
    }
    table.selected = attacker;
    defenseUi.sightAsked.delete(attacker + '\n' + id);  // the player's own question: its answer is shown
    if (!send({ type: 'cover', attacker: attacker, defender: id })) showMessage('Not connected', 'The ruling was not asked.', 'refusal');
    else showMessage(attacker + ' attacks ' + id, 'Asking the host…', 'info');
  }

  // [SECTION] The panel and the bar

  const panel = document.getElementById('panel');
  const hint = document.getElementById('hint');

  function setConnection(state, text) {
    table.connection = state;
    table.connectionText = text;
    const el = document.getElementById('connection');
    el.className = 'conn ' + state;
    document.getElementById('connection-text').textContent = text;
    el.title = text;
    if (table.battle) renderBattle();  // the battle's controls act only while connected
    if (table.defense) renderDefense();  // and so do the defense's
  }

  function showMessage(title, text, kind, retry) {
    table.message = { title: title, text: text, kind: kind };
    if (kind.lastIndexOf('ruling', 0) !== 0) table.ruling = null;  // its lines go with the ruling's words
    panel.hidden = false;
    panel.className = kind;
    document.getElementById('panel-title').textContent = title;
    document.getElementById('panel-text').textContent = text;
    document.getElementById('retry').hidden = !retry;
    defendOffer = null;
    document.getElementById('panel-defend').hidden = true;
    hint.hidden = true;
    resize();
  }

  function hidePanel() {
    table.message = null;
    panel.hidden = true;
    resize();
  }

  function showRuling(r) {
    let kind = 'ruling-none', head = r.attacker + ' → ' + r.defender + ': no line of sight';
    if (r.line_of_sight) {
      const cover = r.cover === true || (typeof r.cover === 'string' && r.cover !== 'none') ||
                    (typeof r.level === 'string' && r.level !== 'none');
      kind = cover ? 'ruling-cover' : 'ruling-clear';
      head = r.attacker + ' → ' + r.defender + ': ' + (cover ? 'cover' : 'no cover');
      if (typeof r.level === 'string') head += ' (' + r.level.replace(/_/g, ' ') + ')';
    }
    showMessage(head, r.explanation || '', kind);
    offerDefense(r);
  }

  document.getElementById('panel-close').addEventListener('click', () => {
    table.ruling = null;
    // The GM's attacker is picked anew after a ruling is closed (the GM acts for every side; a
    // player's is its own figure, kept).
    if (table.side === '*') table.selected = null;
    hidePanel();
    draw();
  });
  document.getElementById('retry').addEventListener('click', () => {
    table.refusedForGood = false;
    retryDelay = 0.5;
    hidePanel();
    connect();
  });
  document.getElementById('fit').addEventListener('click', fit);
  document.getElementById('zoom-in').addEventListener('click', () => {
    const { w, h } = cssSize();
    zoomAt(1.25, w / 2, h / 2);
  });
  document.getElementById('zoom-out').addEventListener('click', () => {
    const { w, h } = cssSize();
    zoomAt(0.8, w / 2, h / 2);
  });
  window.addEventListener('resize', resize);
  if (typeof ResizeObserver === 'function') new ResizeObserver(resize).observe(canvas);

  // [SECTION] The battle: a MazeWorld fight beside the board
  // When the table serves a battle, the host sends it as the seat's team may know it ("battle": the
  // four Sides with the cover the team was shown, the creatures it sees, this turn's order as it may
  // know it, its log) after the snapshot and again whenever that changes; the page draws it whole each
  // time. An action is a battle event for one of the seat's own creatures (the GM's: any creature),
  // answered by new views or by a refusal, which is shown beside the controls. The page sends no dice.

  const battleEl = document.getElementById('battle');
  const battleToggle = document.getElementById('battle-toggle');
  const phoneWidth = window.matchMedia('(max-width: 719px)');
  const battleUi = {
    open: false,          // the panel shown
    closedByHand: false,  // the player closed it: a new view does not open it again
    actor: null,          // the creature the controls act for
    target: null,         // the fire target picked: {id} or {cover: SIDE, piece: N or null}
    pending: null,        // an action sent and not answered: {action, timer}
    refusal: null,        // why the last action was refused (the host's words, or the page's)
    seenLog: 0,           // log lines when the panel was last open (the bar's button marks news)
    logKey: '',           // the log as last drawn (its length and last line)
  };
  // What the panel drew, for the test hook.
  let drawnBattle = null;

  const byId = (id) => document.getElementById(id);
  const isGmSeat = () => table.side === '*';
  const battleCreatures = () => (table.battle && Array.isArray(table.battle.combatants) ? table.battle.combatants : []);
  const battleCreature = (id) => battleCreatures().find((c) => c.id === id) || null;
  // The creatures this seat may act for: its own team's (the GM's: all), not out of the fight.
  const canActFor = (c) => !!c && !c.out && (isGmSeat() || c.own === true);
  const words = (s) => String(s).replace(/_/g, ' ');

  function element(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function showBattle() {
    if (battleToggle.hidden) {
      battleToggle.hidden = false;
      if (!battleUi.closedByHand) setBattleOpen(true);
    }
    renderBattle();
  }

  function setBattleOpen(open) {
    battleUi.open = open;
    battleEl.hidden = !open;
    document.body.classList.toggle('battle-open', open);
    battleToggle.setAttribute('aria-pressed', open ? 'true' : 'false');
    if (open) {
      battleUi.seenLog = table.battle && Array.isArray(table.battle.log) ? table.battle.log.length : 0;
      battleToggle.classList.remove('news');
    }
    labelToggle();
    fit();  // the board's room changed: all of it in what is left (or, on a phone, when it is back)
    resize();
    renderBattle();
  }

  // On a phone the battle takes the board's place: the bar's button then goes back to the board.
  function labelToggle() {
    const text = battleUi.open && phoneWidth.matches ? 'Board' : 'Battle';
    if (battleToggle.textContent !== text) battleToggle.textContent = text;
    battleToggle.title = battleUi.open ? (phoneWidth.matches ? 'Show the board' : 'Hide the battle') : 'Show the battle';
  }

  battleToggle.addEventListener('click', () => {
    battleUi.closedByHand = battleUi.open;
    setBattleOpen(!battleUi.open);
  });
  if (phoneWidth.addEventListener) phoneWidth.addEventListener('change', labelToggle);

  function badgesOf(c) {
    const b = [];
    if (c.behind_cover) b.push('C');
    if (c.stealth) b.push('S');
    if (c.exposure === 'hidden') b.push('H');
    if (c.exposure === 'exposed') b.push('E');
    if (c.down) b.push('D');
    return b;
  }

  // A creature in words, for its token's tooltip and its screen reader label.
  function describe(c) {
    const parts = [c.id + (c.team ? ' (' + c.team + ')' : '')];
    if (c.own) parts.push('yours');
    if (c.behind_cover) parts.push('behind cover');
    if (c.stealth) parts.push('in stealth');
    if (c.exposure === 'hidden' || c.exposure === 'exposed') parts.push(c.exposure);
    if (c.intent) parts.push(c.intent === 'non_combat' ? 'plans a non-combat action' : 'plans to fight');
    if (typeof c.pain === 'number') parts.push('Pain ' + c.pain + (typeof c.pain_limit === 'number' ? ' of ' + c.pain_limit : ''));
    if (c.wounds && typeof c.wounds === 'object') {
      const w = Object.entries(c.wounds).filter(([, v]) => v).map(([k, v]) => words(k) + ' ' + v);
      if (w.length) parts.push('wounds: ' + w.join(', '));
    }
    if (typeof c.initiative === 'number') parts.push('initiative ' + c.initiative);
    if (typeof c.agility === 'number') parts.push('Agility ' + c.agility);
    if (c.turn_over) parts.push('turn over');
    if (c.down) parts.push('down');
    if (c.out) parts.push('out of the fight');
    return parts.join(', ');
  }

  function teamColour(team) {
    let h = 0;
    for (const ch of String(team || '')) h = (h * 37 + ch.codePointAt(0)) % 360;
    return 'hsl(' + h + ', 65%, 58%)';
  }

  function healthClass(frac) {
    return frac > 0.5 ? 'hpbar' : frac > 0.25 ? 'hpbar mid' : 'hpbar low';
  }

  function bar(frac, cls) {
    const outer = element('span', cls);
    const inner = element('span');
    inner.style.width = Math.round(Math.max(0, Math.min(1, frac)) * 100) + '%';
    outer.appendChild(inner);
    return outer;
  }

  function sideOf(b, n) {
    return (Array.isArray(b.sides) ? b.sides.find((s) => s && s.side === n) : null) || { side: n, cover: null };
  }

  // The fire targets the actor may pick: the creatures of other teams the seat sees, then each
  // standing piece of cover on a Side whose cover the seat was shown.
  function fireTargets(b, actor) {
    const out = [];
    if (!actor) return out;
    for (const c of battleCreatures()) {
      if (c.out || c.id === actor.id || c.team === actor.team) continue;
      out.push({ key: 'c:' + c.id, label: c.id, at: c.id, id: c.id });
    }
    for (let n = 1; n <= 4; ++n) {
      const cover = sideOf(b, n).cover;
      if (!Array.isArray(cover)) continue;
      cover.forEach((piece, i) => {
        if (!piece || piece.destroyed) return;
        const many = cover.length > 1;
        const at = many ? { cover: n, piece: i + 1 } : { cover: n };
        out.push({ key: 'cover:' + n + ':' + (many ? i + 1 : ''), label: 'Side ' + n + ': ' + (piece.name || 'cover'), at: at });
      });
    }
    return out;
  }

  function fillSelect(sel, values, labelOf, first) {
    const want = (first ? [first[0]] : []).concat(values).join('\n');
    if (sel.dataset.values === want) return;
    const keep = sel.value;
    sel.textContent = '';
    if (first) sel.appendChild(new Option(first[1], first[0]));
    for (const v of values) sel.appendChild(new Option(labelOf(v), v));
    sel.dataset.values = want;
    if ([...sel.options].some((o) => o.value === keep)) sel.value = keep;
  }

  function renderBattle() {
    const b = table.battle;
    if (!b) return;
    const gm = isGmSeat();
    const creatures = battleCreatures();
    const log = Array.isArray(b.log) ? b.log : [];
    drawnBattle = { open: battleUi.open, name: b.name || '', turn: b.turn, variant: b.variant || '', team: b.team, sides: [], tokens: [], order: [], next: null, logLines: 0, actors: [], actor: null, targets: [], target: null, controls: {}, refusal: null, pending: !!battleUi.pending };
    if (!battleUi.open && log.length > battleUi.seenLog) battleToggle.classList.add('news');

    // The head: the battle, its turn and variant, whose view it is; the GM's Next turn.
    byId('battle-name').textContent = b.name || 'MazeWorld battle';
    const turnText = 'Turn ' + (b.turn !== undefined ? b.turn : '?') + (b.variant ? ' · ' + b.variant : '') +
                     (gm ? ' · the GM sees everything' : b.team ? ' · team ' + b.team : '');
    byId('battle-turn').textContent = turnText;
    drawnBattle.turnText = turnText;
    const nextTurn = byId('battle-next');
    nextTurn.hidden = !gm;

    // The actor: kept while it may still act; else the next in the order, if the seat's, else its first.
    const actors = creatures.filter(canActFor);
    if (!canActFor(battleCreature(battleUi.actor))) {
      const next = battleCreature(b.next);
      battleUi.actor = canActFor(next) ? next.id : actors.length ? actors[0].id : null;
      battleUi.target = null;
    }
    const actor = battleCreature(battleUi.actor);
    const targets = fireTargets(b, actor);
    if (battleUi.target && !targets.some((t) => t.key === battleUi.target)) battleUi.target = null;

    // The room: four Sides, each with its cover and the creatures on it.
    const sidesEl = byId('battle-sides');
    sidesEl.textContent = '';
    for (let n = 1; n <= 4; ++n) {
      const side = sideOf(b, n);
      const box = element('div', 'bside');
      box.dataset.side = String(n);
      const here = creatures.filter((c) => c.side === n);
      if (here.some((c) => c.own)) box.classList.add('mine');
      box.appendChild(element('h3', null, 'Side ' + n));
      const drawnSide = { side: n, cover: null, tokens: [] };
      if (!Array.isArray(side.cover)) {
        box.appendChild(element('p', 'cover unknown', 'cover not yet seen'));
        drawnSide.cover = 'unknown';
      } else if (side.cover.length === 0) {
        box.appendChild(element('p', 'cover none', 'no cover'));
        drawnSide.cover = 'none';
      } else {
        drawnSide.cover = [];
        for (const piece of side.cover) {
          const p = element('div', 'cover' + (piece.destroyed ? ' destroyed' : ''));
          p.appendChild(element('span', 'cname', piece.name || 'cover'));
          const hp = typeof piece.hp === 'number' && piece.hp > 0 && typeof piece.hp_left === 'number' ? [piece.hp_left, piece.hp] : null;
          if (piece.destroyed) p.appendChild(element('span', 'dim', ' · destroyed'));
          else if (hp) p.appendChild(element('span', 'dim', ' ' + hp[0] + '/' + hp[1]));
          if (hp) p.appendChild(bar(hp[0] / hp[1], healthClass(hp[0] / hp[1])));
          box.appendChild(p);
          drawnSide.cover.push({ name: piece.name, hp_left: piece.hp_left, hp: piece.hp, destroyed: !!piece.destroyed });
        }
      }
      const tokens = element('div', 'tokens');
      for (const c of here) {
        const t = element('button', 'token');
        t.type = 'button';
        t.dataset.id = c.id;
        t.style.borderLeftColor = teamColour(c.team);
        if (c.own) t.classList.add('own');
        if (c.turn_over) t.classList.add('spent');
        if (c.out) t.classList.add('out');
        if (actor && c.id === actor.id) t.classList.add('acting');
        if (battleUi.target === 'c:' + c.id) t.classList.add('target');
        t.appendChild(element('span', 'tid', c.id));
        const badges = badgesOf(c);
        if (badges.length) {
          const bs = element('span', 'badges');
          for (const k of badges) bs.appendChild(element('span', 'badge b-' + k, k));
          t.appendChild(bs);
        }
        if (typeof c.pain === 'number' && typeof c.pain_limit === 'number' && c.pain_limit > 0) {
          const left = 1 - c.pain / c.pain_limit;  // the Pain it may still bear
          t.appendChild(bar(left, healthClass(left).replace('hpbar', 'pain')));
        }
        t.title = describe(c);
        t.setAttribute('aria-label', describe(c));
        t.addEventListener('click', () => tapToken(c.id));
        tokens.appendChild(t);
        drawnSide.tokens.push(c.id);
        drawnBattle.tokens.push({ id: c.id, team: c.team, side: n, own: !!c.own, badges: badges.join(''), acting: !!(actor && c.id === actor.id), target: battleUi.target === 'c:' + c.id, spent: !!c.turn_over, out: !!c.out });
      }
      box.appendChild(tokens);
      sidesEl.appendChild(box);
      drawnBattle.sides.push(drawnSide);
    }

    // What to do: for whom, then the controls for it.
    const actorsEl = byId('battle-actors');
    actorsEl.textContent = '';
    for (const c of actors) {
      const a = element('button', null, c.id);
      a.type = 'button';
      a.dataset.id = c.id;
      a.setAttribute('aria-pressed', actor && c.id === actor.id ? 'true' : 'false');
      a.addEventListener('click', () => pickActor(c.id));
      actorsEl.appendChild(a);
    }
    drawnBattle.actors = actors.map((c) => c.id);
    drawnBattle.actor = actor ? actor.id : null;
    const none = byId('battle-none');
    none.hidden = !!actor;
    none.textContent = gm ? 'No creature is in the fight.' : 'No creature of your team is in the fight.';
    actorsEl.hidden = actors.length === 0;
    byId('battle-controls').hidden = !actor;
    const live = table.connection === 'connected' && !battleUi.pending;
    const set = (id, enabled, shown) => {
      const e = byId(id);
      e.hidden = shown === false;
      e.disabled = !enabled;
      if (shown !== false) drawnBattle.controls[id] = !!enabled;
    };
    set('battle-next', live && gm, gm);
    if (actor) {
      const intent = actor.intent;
      byId('bc-combat').setAttribute('aria-pressed', intent === 'combat' ? 'true' : 'false');
      byId('bc-non-combat').setAttribute('aria-pressed', intent === 'non_combat' ? 'true' : 'false');
      set('bc-combat', live && intent !== 'combat');
      set('bc-non-combat', live && intent !== 'non_combat');
      // What the host would refuse is not offered: after its turn a creature only plans (until the
      // next turn), and one behind cover does not take cover again; the note says which.
      const spent = !!actor.turn_over;
      const hidden = actor.exposure === 'hidden';
      const note = spent ? actor.id + '\'s turn is over: it acts again next turn (its plan may still change).'
        : actor.behind_cover ? actor.id + ' is behind cover already' + (hidden ? '; Hidden, it fires once Exposed (switching takes its turn).' : '.') : '';
      const noteEl = byId('bc-note');
      noteEl.textContent = note;
      noteEl.hidden = !note;
      drawnBattle.note = note || null;
      set('bc-cover', live && !spent && !actor.behind_cover);
      byId('bc-stealth').disabled = !live || spent || !!actor.behind_cover;
      byId('bc-switch').disabled = !live || spent;
      for (let n = 1; n <= 4; ++n) set('bc-move-' + n, live && !spent, actor.side !== n);
      // Hidden or Exposed: for a creature behind cover where the variant keeps it (the Mazes; the UA's is "none").
      const exposure = !!actor.behind_cover && (actor.exposure === 'hidden' || actor.exposure === 'exposed');
      byId('bc-exposure').hidden = !exposure;
      byId('bc-hidden').setAttribute('aria-pressed', actor.exposure === 'hidden' ? 'true' : 'false');
      byId('bc-exposed').setAttribute('aria-pressed', actor.exposure === 'exposed' ? 'true' : 'false');
      set('bc-hidden', live && !spent && actor.exposure !== 'hidden', exposure);
      set('bc-exposed', live && !spent && actor.exposure !== 'exposed', exposure);
      // Fire: the target picker, then the weapon and the rest.
      const targetsEl = byId('bc-targets');
      targetsEl.textContent = '';
      if (!targets.length) targetsEl.appendChild(element('span', 'dim', 'Nothing to fire at that you can see.'));
      for (const t of targets) {
        const tb = element('button', 'target', t.label);
        tb.type = 'button';
        tb.dataset.target = t.key;
        tb.setAttribute('aria-pressed', battleUi.target === t.key ? 'true' : 'false');
        tb.disabled = !live || spent || hidden;
        tb.addEventListener('click', () => {
          battleUi.target = battleUi.target === t.key ? null : t.key;
          renderBattle();
        });
        targetsEl.appendChild(tb);
      }
      drawnBattle.targets = targets.map((t) => t.key);
      drawnBattle.target = battleUi.target;
      const weapons = Array.isArray(b.weapons) && b.weapons.length ? b.weapons : ['firearm'];
      fillSelect(byId('bc-weapon'), weapons, words);
      fillSelect(byId('bc-bullet'), Array.isArray(b.bullets) ? b.bullets : [], String);
      fillSelect(byId('bc-aim'), Array.isArray(b.parts) ? b.parts : [], words, ['', 'no aim']);
      const firearm = byId('bc-weapon').value === 'firearm';
      set('bc-weapon', live);
      set('bc-bullet', live && firearm && byId('bc-bullet').options.length > 0);
      set('bc-damage', live);
      set('bc-aim', live);
      set('bc-silenced', live && firearm);
      set('bc-tracer', live && firearm);
      set('bc-fire-go', live && !spent && !hidden && !!battleUi.target);
    }

    const refusal = byId('battle-refusal');
    refusal.hidden = !battleUi.refusal;
    refusal.textContent = battleUi.refusal || '';
    drawnBattle.refusal = battleUi.refusal;

    // The turn order, the next one marked.
    const order = byId('battle-order');
    order.textContent = '';
    for (const id of Array.isArray(b.order) ? b.order : []) {
      const c = battleCreature(id);
      const li = element('li', null, id);
      if (c && c.own) li.classList.add('own');
      if (id === b.next) li.classList.add('next');
      order.appendChild(li);
    }
    drawnBattle.order = Array.isArray(b.order) ? b.order.slice() : [];
    drawnBattle.next = typeof b.next === 'string' ? b.next : null;

    // The log, oldest first, newest in view: each line's chain link set apart, the last one whole.
    const logEl = byId('battle-log');
    const key = log.length + '\n' + (log.length ? log[log.length - 1] : '');
    if (key !== battleUi.logKey) {
      const atEnd = logEl.scrollHeight - logEl.scrollTop - logEl.clientHeight < 24;
      logEl.textContent = '';
      let last = null;
      for (const line of log) {
        const m = /^(.*?)\s*\|\s*chain ([0-9a-fA-F]{8,})\s*$/.exec(String(line));
        const p = element('p', null, m ? m[1] : String(line));
        if (m) {
          const link = element('span', 'link', ' · ' + m[2].slice(0, 8) + '…');
          link.title = 'chain ' + m[2];
          p.appendChild(link);
          last = m[2];
        }
        logEl.appendChild(p);
      }
      if (!log.length) logEl.appendChild(element('p', 'dim', 'Nothing has happened yet.'));
      byId('battle-chain').textContent = last ? 'Last chain link: ' + last : '';
      if (atEnd || !battleUi.logKey) logEl.scrollTop = logEl.scrollHeight;
      battleUi.logKey = key;
    }
    drawnBattle.logLines = log.length ? logEl.querySelectorAll('p').length : 0;
  }

  function pickActor(id) {
    battleUi.actor = id;
    battleUi.target = null;
    battleUi.refusal = null;
    renderBattle();
  }

  // A tap on a token: a creature the seat may act for is picked to act (the GM picks any this way);
  // another team's creature is the target to fire at (a second tap lets it go).
  function tapToken(id) {
    const c = battleCreature(id);
    if (!c) return;
    if (canActFor(c)) {
      if (battleUi.actor !== id) pickActor(id);
      return;
    }
    const actor = battleCreature(battleUi.actor);
    if (actor && c.team !== actor.team && !c.out) {
      battleUi.target = battleUi.target === 'c:' + id ? null : 'c:' + id;
      renderBattle();
    }
  }

  function battleAct(action) {
    if (battleUi.pending) return;
    if (!send({ type: 'battle_action', action: action })) {
      battleUi.refusal = 'Not connected: the action was not sent.';
      renderBattle();
      return;
    }
    battleUi.refusal = null;
    // Answered by new views or a refusal; a silent host does not leave the controls locked.
    battleUi.pending = { action: action, timer: setTimeout(() => battleAnswered(null), 8000) };
    renderBattle();
  }

  function battleAnswered(reason) {
    if (battleUi.pending) clearTimeout(battleUi.pending.timer);
    battleUi.pending = null;
    battleUi.refusal = reason;
    renderBattle();
  }

  const actorId = () => battleUi.actor;
  byId('battle-next').addEventListener('click', () => battleAct({ do: 'next_turn' }));
  byId('bc-combat').addEventListener('click', () => battleAct({ do: 'declare', who: actorId(), action: 'combat' }));
  byId('bc-non-combat').addEventListener('click', () => battleAct({ do: 'declare', who: actorId(), action: 'non_combat' }));
  byId('bc-cover').addEventListener('click', () => {
    const a = { do: 'take_cover', who: actorId() };
    if (!byId('bc-stealth').checked) a.stealth = false;  // checked: the check wherever the rules allow one
    battleAct(a);
  });
  for (const b of document.querySelectorAll('#battle button.move')) {
    b.addEventListener('click', () => {
      const a = { do: 'move', who: actorId(), to: Number(b.dataset.side) };
      if (byId('bc-switch').checked) a.stealth_switch = true;
      battleAct(a);
    });
  }
  byId('bc-hidden').addEventListener('click', () => battleAct({ do: 'exposure', who: actorId(), to: 'hidden' }));
  byId('bc-exposed').addEventListener('click', () => battleAct({ do: 'exposure', who: actorId(), to: 'exposed' }));
  byId('bc-weapon').addEventListener('change', renderBattle);
  byId('bc-fire-go').addEventListener('click', () => {
    const actor = battleCreature(battleUi.actor);
    const target = fireTargets(table.battle, actor).find((t) => t.key === battleUi.target);
    if (!actor || !target) return;
    const damage = Number(byId('bc-damage').value);
    if (!Number.isInteger(damage) || damage < 1 || damage > 100) {
      battleUi.refusal = 'The damage is a whole number from 1 to 100.';
      renderBattle();
      return;
    }
    const weapon = byId('bc-weapon').value;
    const a = { do: 'fire', who: actor.id, at: target.at, weapon: weapon, damage: damage };
    if (weapon === 'firearm') {
      if (byId('bc-bullet').value) a.bullet = byId('bc-bullet').value;
      if (byId('bc-silenced').checked) a.silenced = true;
      if (byId('bc-tracer').checked) a.tracer = true;
    }
    if (byId('bc-aim').value) a.aim = byId('bc-aim').value;
    battleAct(a);
  });

  // [SECTION] Doom's defense cards beside the board
  // When a Doom table serves them (sightline-server --defense-cards), the host sends the seat's
  // "defense" view after the snapshot and again whenever it changes: the decks its figures use with
  // their piles' counts, the round when one of its figures attacks or defends in it (the GM's: every
  // deck and round), and the steps of those rounds. A player reveals the defense of one of its figures
  // against a figure of another side it sees, with the attack's damage; the host rules the cover, and
  // with cover the defender's seat may discard the card and reveal another (which is used) or keep it.
  // An action is answered by new views or a refusal, which is said under the controls. The page draws
  // no card of its own: every card is the host's. The board stays the page's first view: the panel
  // opens from the bar's Defense button, the ruling panel's "Defend ... against ..." or a card the GM
  // revealed that waits for this seat's choice.

  const defenseEl = byId('defense');
  const defenseToggle = byId('defense-toggle');
  // The log's place: at its end unless the player scrolled back (read while it is shown only).
  byId('defense-log').addEventListener('scroll', () => {
    const el = byId('defense-log');
    if (el.clientHeight > 0) defenseUi.logAtEnd = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
  });
  const defenseUi = {
    open: false,          // the panel shown
    attacker: null,       // the figure picked as the attacker
    defender: null,       // the seat's figure picked to defend
    pending: null,        // an action sent and not answered: {action, timer}
    refusal: null,        // why the last action was refused (the host's words, or the page's)
    seenKey: null,        // the round and the log's length when the panel was last open (the bar's button marks news)
    logKey: '',           // the log as last drawn
    logAtEnd: true,       // the log shows its newest lines (the player has not scrolled back)
    // Whether each pair picked has a line of sight, as the host rules it on what the seat knows, for
    // the table's revision `rev` (asked again when it changes); the pairs asked and not yet answered.
    sight: { rev: -1, pairs: new Map() },
    sightAsked: new Set(),
    toRound: false,       // the answer to the seat's own reveal or choice: the round is brought into view
  };
  // What the panel drew, for the test hook.
  let drawnDefense = null;
  // The ruling panel's shortcut to the defense: {attacker, defender, label}.
  let defendOffer = null;

  const defenseRound = () => (table.defense && table.defense.round && typeof table.defense.round === 'object' ? table.defense.round : null);
  const defenseLog = () => (table.defense && Array.isArray(table.defense.log) ? table.defense.log : []);
  const defenseKey = () => JSON.stringify([defenseRound(), defenseLog().length]);
  const boardFigures = () => (table.board && Array.isArray(table.board.figures) ? table.board.figures : []);
  // Whether this seat keeps or discards the round's card: the defender's seat (the GM's: any).
  const decidesRound = (r) => !!r && r.phase === 'revealed' && (isGmSeat() || (findFigure(r.defender) !== null && isOwn(findFigure(r.defender))));

  // The figures the seat may defend (its own; the GM's: all) and those it may be attacked by: the
  // other sides' figures it sees now, from its board (the GM's: any of another side than the defender's).
  function defenders() {
    return boardFigures().filter((f) => isOwn(f));
  }
  function attackers(defenderId) {
    const d = findFigure(defenderId);
    return boardFigures().filter((f) => {
      if (d && (f.id === d.id || f.side === d.side)) return false;
      return isGmSeat() || (!isOwn(f) && f.side !== table.side);
    });
  }

  function defenseArrived() {
    const first = defenseToggle.hidden;
    defenseToggle.hidden = false;  // the board stays the page's first view: the panel opens on a tap
    if (first) defenseUi.seenKey = defenseKey();
    // A card waiting for this seat's choice that it did not ask for (the GM revealed it): shown.
    const r = defenseRound();
    if (!defenseUi.open && !defenseUi.pending && decidesRound(r) && r.can_discard && defenseKey() !== defenseUi.seenKey) {
      setDefenseOpen(true);
      defenseUi.toRound = true;
    }
    if (defenseUi.pending) {
      defenseUi.toRound = true;
      defenseAnswered(null);
    } else renderDefense();
  }

  function setDefenseOpen(open) {
    defenseUi.open = open;
    defenseEl.hidden = !open;
    document.body.classList.toggle('defense-open', open);
    defenseToggle.setAttribute('aria-pressed', open ? 'true' : 'false');
    if (open) {
      defenseUi.seenKey = defenseKey();
      defenseToggle.classList.remove('news');
    }
    labelDefenseToggle();
    fit();  // the board's room changed: all of it in what is left (or, on a phone, when it is back)
    resize();
    renderDefense();
  }

  // On a phone the defense takes the board's place: the bar's button then goes back to the board.
  function labelDefenseToggle() {
    const text = defenseUi.open && phoneWidth.matches ? 'Board' : 'Defense';
    if (defenseToggle.textContent !== text) defenseToggle.textContent = text;
    defenseToggle.title = defenseUi.open ? (phoneWidth.matches ? 'Show the board' : 'Hide the defense cards') : 'Show the defense cards';
  }

  defenseToggle.addEventListener('click', () => setDefenseOpen(!defenseUi.open));
  if (phoneWidth.addEventListener) phoneWidth.addEventListener('change', labelDefenseToggle);

  function cardBox(box, card, cls, sub) {
    box.textContent = '';
    box.className = 'dcard ' + cls;
    const shields = card && typeof card.shields === 'number' ? card.shields : 0;
    const shield = element('span', 'shield' + (shields === 0 ? ' zero' : ''), String(shields));
    shield.setAttribute('aria-hidden', 'true');
    box.appendChild(shield);
    const text = element('span', 'cardtext');
    text.appendChild(element('span', 'cname', card && card.name ? String(card.name) : '?'));
    text.appendChild(element('span', 'csub', shields + (shields === 1 ? ' shield' : ' shields') + (sub ? ' · ' + sub : '')));
    box.appendChild(text);
  }

  function stat(cls, value, label) {
    const s = element('div', 'stat ' + cls);
    s.appendChild(element('b', null, String(value)));
    s.appendChild(element('span', null, label));
    return s;
  }

  function renderDefense() {
    const d = table.defense;
    if (!d) return;
    const gm = isGmSeat();
    const r = defenseRound();
    const log = defenseLog();
    const live = table.connection === 'connected' && !defenseUi.pending;
    drawnDefense = { open: defenseUi.open, who: '', decks: [], attackers: [], attacker: null, defenders: [], defender: null, damage: byId('dc-damage').value, round: null, controls: {}, refusal: null, pending: !!defenseUi.pending, logLines: 0 };
    if (!defenseUi.open && defenseKey() !== defenseUi.seenKey) defenseToggle.classList.add('news');

    const who = gm ? 'Doom · the GM sees every deck and defense' : 'Doom · ' + (d.side || table.side || seatName);
    byId('defense-who').textContent = who;
    byId('defense-reveal-title').textContent = gm ? 'Reveal a defense' : 'Reveal your defense';
    drawnDefense.who = who;

    // Who defends against whom: kept while still on the board (and still a fit); one choice, taken.
    const own = defenders();
    if (!own.some((f) => f.id === defenseUi.defender)) defenseUi.defender = own.length === 1 ? own[0].id : null;
    const enemies = attackers(defenseUi.defender);
    if (!enemies.some((f) => f.id === defenseUi.attacker)) defenseUi.attacker = enemies.length === 1 ? enemies[0].id : null;
    const picker = (el, list, picked, pick, what) => {
      el.textContent = '';
      if (!list.length) el.appendChild(element('span', 'dim', what));
      for (const f of list) {
        const b = element('button', null, f.id);
        b.type = 'button';
        b.dataset.id = f.id;
        b.style.borderLeftColor = sideColour(f.side);
        b.setAttribute('aria-pressed', f.id === picked ? 'true' : 'false');
        b.disabled = !live;
        b.addEventListener('click', () => pick(f.id));
        el.appendChild(b);
      }
    };
    picker(byId('dc-attackers'), enemies, defenseUi.attacker, (id) => {
      defenseUi.attacker = id;
      defenseUi.refusal = null;
      renderDefense();
    }, gm ? 'No figure of another side.' : 'You see no figure of another side.');
    picker(byId('dc-defenders'), own, defenseUi.defender, (id) => {
      defenseUi.defender = id;
      defenseUi.refusal = null;
      renderDefense();
    }, 'No figure of yours is on the board.');
    drawnDefense.attackers = enemies.map((f) => f.id);
    drawnDefense.attacker = defenseUi.attacker;
    drawnDefense.defenders = own.map((f) => f.id);
    drawnDefense.defender = defenseUi.defender;
    const none = byId('defense-none');
    none.hidden = own.length > 0;
    none.textContent = 'No figure of yours is on the board to defend.';
    byId('dc-form').hidden = own.length === 0;
    // The seat's own card waiting is kept or discarded first; another side's waiting holds up nobody
    // else (the host refuses only a side with its own card waiting).
    const busy = decidesRound(r);
    const set = (id, enabled, shown) => {
      const e = byId(id);
      e.hidden = shown === false;
      e.disabled = !enabled;
      if (shown !== false) drawnDefense.controls[id] = !!enabled;
    };
    set('dc-damage', live, own.length > 0);
    // The pair picked: whether it has a line of sight, asked of the host once a revision (an attack
    // with none has no defense: the host would refuse it).
    if (defenseUi.sight.rev !== table.rev) defenseUi.sight = { rev: table.rev, pairs: new Map() };
    const pair = defenseUi.attacker && defenseUi.defender ? defenseUi.attacker + '\n' + defenseUi.defender : null;
    if (pair && live && !defenseUi.sight.pairs.has(pair) && !defenseUi.sightAsked.has(pair) &&
        send({ type: 'cover', attacker: defenseUi.attacker, defender: defenseUi.defender })) defenseUi.sightAsked.add(pair);
    const unseen = !!pair && defenseUi.sight.pairs.get(pair) === false;
    set('dc-reveal', live && !busy && !!pair && !unseen, own.length > 0);
    // Why Reveal waits, when it does.
    let why = '';
    if (busy) why = decidesRound(r) ? 'Keep or discard the card revealed first.' : 'The card revealed is kept or discarded first.';
    else if (enemies.length && (!defenseUi.attacker || !defenseUi.defender)) why = 'Pick who attacks and who defends.';
    else if (unseen) why = defenseUi.attacker + ' has no line of sight to ' + defenseUi.defender + ': no attack, no defense.';
    byId('defense-why').textContent = why;
    byId('defense-why').hidden = !why;
    drawnDefense.why = why;

    const refusal = byId('defense-refusal');
    refusal.hidden = !defenseUi.refusal;
    refusal.textContent = defenseUi.refusal || '';
    drawnDefense.refusal = defenseUi.refusal;

    // The round: who attacks whom, the card shown, and what it blocked once used.
    const part = byId('defense-round-part');
    part.hidden = !r;
    const choice = byId('defense-choice');
    const result = byId('defense-result');
    if (r) {
      const decides = decidesRound(r);
      const versus = byId('defense-versus');
      versus.textContent = '';
      versus.appendChild(element('b', null, String(r.attacker)));
      versus.appendChild(document.createTextNode(' attacks '));
      versus.appendChild(element('b', null, String(r.defender)));
      versus.appendChild(document.createTextNode(' · ' + r.damage_in + ' damage'));
      const coverText = r.cover ? (r.ignore_cover ? 'cover, ignored' : 'cover') : 'no cover';
      versus.appendChild(element('span', 'chip ' + (r.cover && !r.ignore_cover ? 'cover' : 'clear'), coverText));
      const res = r.result && typeof r.result === 'object' ? r.result : null;
      const card = res ? { name: res.card, shields: res.shields } : r.card;
      cardBox(byId('defense-card'), card, r.phase === 'revealed' ? 'revealed' : 'used',
        r.phase === 'revealed' ? 'revealed' : res && res.rerolled ? 'used, the second card' : 'used');
      let say = '';
      if (r.phase === 'revealed' && r.can_discard) {
        say = decides ? 'With cover, ' + r.defender + ' may discard this card and reveal another, which it must use; or keep it.'
                      : 'Waiting for ' + r.defender + '\'s seat to keep this card or discard it and reveal another.';
      } else if (r.phase === 'revealed') {
        say = decides ? r.defender + ' must use this card.' : 'Waiting for ' + r.defender + '\'s seat.';
      } else if (res && res.rerolled) {
        say = 'With cover, the first card was discarded and this one revealed and used.';
      } else if (res) {
        say = r.cover && !r.ignore_cover ? 'Kept and used.' : 'Without cover the card is used at once.';
      }
      byId('defense-say').textContent = say;
      choice.hidden = !(r.phase === 'revealed' && decides);
      set('dc-discard', live && r.can_discard === true, r.phase === 'revealed' && decides && r.can_discard === true);
      set('dc-keep', live, r.phase === 'revealed' && decides);
      result.hidden = !res;
      result.textContent = '';
      if (res) {
        result.appendChild(stat('damage', r.damage_in, 'damage'));
        result.appendChild(stat('blocked', res.blocked, 'blocked'));
        result.appendChild(stat('through', res.through, 'through'));
      }
      drawnDefense.round = {
        attacker: r.attacker, defender: r.defender, damage_in: r.damage_in, cover: !!r.cover, phase: r.phase,
        card: card ? { name: card.name, shields: card.shields } : null, decides: decides && r.phase === 'revealed', say: say,
        result: res ? { card: res.card, shields: res.shields, blocked: res.blocked, through: res.through, rerolled: !!res.rerolled } : null,
      };
    } else {
      choice.hidden = true;
      result.hidden = true;
      byId('dc-discard').hidden = byId('dc-keep').hidden = true;
    }

    // The decks: what is left to draw and what was discarded.
    const decksEl = byId('defense-decks');
    decksEl.textContent = '';
    const decks = Array.isArray(d.decks) ? d.decks : [];
    if (!decks.length) decksEl.appendChild(element('li', 'dim', 'No defense deck for your figures.'));
    for (const k of decks) {
      const li = element('li');
      li.dataset.id = String(k.id);
      li.appendChild(element('span', 'dname', String(k.name || k.id)));
      const counts = element('span', 'counts');
      const count = (n, label) => {
        const c = element('span');
        c.appendChild(element('b', null, String(n)));
        c.appendChild(document.createTextNode(' ' + label));
        return c;
      };
      counts.appendChild(count(k.draw, 'to draw'));
      counts.appendChild(count(k.discard, 'discarded'));
      li.appendChild(counts);
      decksEl.appendChild(li);
      drawnDefense.decks.push({ id: k.id, name: k.name, draw: k.draw, discard: k.discard });
    }

    // The log, oldest first, newest in view.
    const logEl = byId('defense-log');
    const key = log.length + '\n' + (log.length ? log[log.length - 1] : '');
    if (key !== defenseUi.logKey) {
      logEl.textContent = '';
      for (const line of log) logEl.appendChild(element('p', null, String(line)));
      if (!log.length) logEl.appendChild(element('p', 'dim', 'No defense yet.'));
      defenseUi.logKey = key;
    }
    // Kept at its newest lines unless the player scrolled back (and there when the panel, hidden while
    // the log grew, is shown again).
    if (defenseUi.logAtEnd) logEl.scrollTop = logEl.scrollHeight;
    drawnDefense.logLines = log.length ? logEl.querySelectorAll('p').length : 0;
    drawnDefense.logScroll = { top: logEl.scrollTop, height: logEl.scrollHeight, shown: logEl.clientHeight };

    if (defenseUi.toRound && defenseUi.open && r) part.scrollIntoView({ block: 'nearest' });
    defenseUi.toRound = false;
  }

  function defenseAct(action) {
    if (defenseUi.pending) return;
    if (!send({ type: 'defense_action', action: action })) {
      defenseUi.refusal = 'Not connected: the action was not sent.';
      renderDefense();
      return;
    }
    defenseUi.refusal = null;
    // Answered by new views or a refusal; a silent host does not leave the controls locked.
    defenseUi.pending = { action: action, timer: setTimeout(() => defenseAnswered(null), 8000) };
    renderDefense();
  }

  function defenseAnswered(reason) {
    if (defenseUi.pending) clearTimeout(defenseUi.pending.timer);
    defenseUi.pending = null;
    defenseUi.refusal = reason;
    renderDefense();
  }

  byId('dc-reveal').addEventListener('click', () => {
    const raw = byId('dc-damage').value.trim();
    if (!/^\d{1,3}$/.test(raw)) {
      defenseUi.refusal = 'The damage is a whole number from 0 to 999.';
      renderDefense();
      return;
    }
    if (!defenseUi.attacker || !defenseUi.defender) return;
    defenseAct({ do: 'reveal', attacker: defenseUi.attacker, defender: defenseUi.defender, damage: Number(raw) });
  });
  // The card shown is the one decided (the GM's page may see more than one waiting).
  const shownDefender = () => (table.defense && table.defense.round && table.defense.round.defender) || undefined;
  byId('dc-discard').addEventListener('click', () => defenseAct({ do: 'discard', defender: shownDefender() }));
  byId('dc-keep').addEventListener('click', () => defenseAct({ do: 'keep', defender: shownDefender() }));
  byId('dc-damage').addEventListener('input', () => { if (drawnDefense) drawnDefense.damage = byId('dc-damage').value; });

  // A ruling between a figure of the seat's and one of another side it sees: the panel offers the
  // defense against it (the GM's: the defense of the ruling's defender).
  function offerDefense(r) {
    const btn = byId('panel-defend');
    defendOffer = null;
    const a = r ? findFigure(r.attacker) : null, d = r ? findFigure(r.defender) : null;
    if (table.defense && r && r.line_of_sight && a && d && a.side !== d.side) {
      if (isGmSeat()) defendOffer = { attacker: a.id, defender: d.id, label: 'Reveal ' + d.id + '\'s defense' };
      else if (isOwn(a) && !isOwn(d)) defendOffer = { attacker: d.id, defender: a.id, label: 'Defend ' + a.id + ' against ' + d.id };
    }
    btn.hidden = !defendOffer;
    btn.textContent = defendOffer ? defendOffer.label : '';
  }
  byId('panel-defend').addEventListener('click', () => {
    const o = defendOffer;
    if (!o) return;
    defenseUi.attacker = o.attacker;
    defenseUi.defender = o.defender;
    defenseUi.refusal = null;
    table.ruling = null;
    hidePanel();
    if (!defenseUi.open) setDefenseOpen(true);
    else renderDefense();
    byId('defense-reveal').scrollIntoView({ block: 'nearest' });
    draw();
  });

  // [SECTION] Test hook
  // What the page holds and drew, for tests and for anyone curious: nothing here the host did not send.
  window.sightlineTable = {
    state() {
      return JSON.parse(JSON.stringify({
        connection: table.connection,
        connectionText: table.connectionText,
        seat: table.seat,
        side: table.side,
        rev: table.rev,
        board: table.board,
        sight: table.sight,
        pending: table.pending,
        ruling: table.ruling,
        reach: table.reach,
        message: table.message,
        selected: table.selected,
        view: view,
        room: room,
        drawn: drawn,
        exploredRestored: !!(explored && explored.restored),
        battle: table.battle,
        battleRev: table.battleRev,
        battleDrawn: drawnBattle,
        defense: table.defense,
        defenseRev: table.defenseRev,
        defenseDrawn: drawnDefense,
      }));
    },
    exploredArea,
    toScreen(x, y) {
      const r = canvas.getBoundingClientRect();
      return [r.left + toScreenX(x), r.top + toScreenY(y)];
    },
  };

  document.getElementById('seat').textContent = seatName || 'Sightline';
  resize();
  connect();
})();
