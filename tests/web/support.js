// What the players' page's browser tests share (page.test.js, battle.test.js, defense.test.js): the command line,
// Debian's Chromium and puppeteer-core (or a skip), checks, sightline-server started with its seats,
// a seat's page with every WebSocket frame it receives and sends, and the fit of the page.
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');

const SKIP = 77;
const root = path.resolve(__dirname, '..', '..');

function arg(name, fallback) {
  const i = process.argv.indexOf('--' + name);
  return i > 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}
const serverPath = arg('server', path.join(root, 'build', 'sightline-server'));
const cliPath = arg('cli', path.join(root, 'build', 'sightline-cli'));
const outDir = arg('out', path.join(os.tmpdir(), 'sightline-web'));

// Chromium and the driver, or the test is skipped (exit 77) with what to install.
function driver(name) {
  const chromiumPath = process.env.CHROMIUM || ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));
  if (!chromiumPath) {
    console.log(name + ': SKIPPED: Debian\'s Chromium is not installed (tools/setup.sh installs the package "chromium").');
    process.exit(SKIP);
  }
  try {
    return { chromiumPath, puppeteer: require('puppeteer-core'), WebSocket: require('ws') };
  } catch (e) {
    console.log(name + ': SKIPPED: puppeteer-core is not installed in tests/web (tools/setup.sh runs npm ci there).');
    process.exit(SKIP);
  }
}

function launch(d) {
  return d.puppeteer.launch({
    executablePath: d.chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-extensions'],
  });
}

const phone = { width: 360, height: 640, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const laptop = { width: 1280, height: 800, deviceScaleFactor: 1, isMobile: false, hasTouch: false };

let checks = 0;
function check(ok, what, detail) {
  if (!ok) throw new Error('FAILED: ' + what + (detail !== undefined ? '\n  ' + (typeof detail === 'string' ? detail : JSON.stringify(detail)) : ''));
  ++checks;
  console.log('ok ' + checks + ' - ' + what);
}
const checkCount = () => checks;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// sightline-server on a free port, serving the page from the source tree; resolves with its seats
// (from its `seat NAME SIDE URL` lines) once it prints `ready`.
function startServer(map, extra = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(serverPath, [map, '--port', '0', '--web', path.join(root, 'assets', 'web'), ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
    const seats = {};
    let buffer = '';
    child.stderr.on('data', (d) => process.stderr.write(d));
    child.stdout.on('data', (d) => {
      buffer += d;
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        const words = line.split(' ');
        if (words[0] === 'seat') {
          const url = new URL(words[3].replace(/^ws:/, 'http:'));
          seats[words[1]] = { side: words[2], ws: words[3], port: Number(url.port), token: url.searchParams.get('token') };
        } else if (words[0] === 'ready') resolve({ child, seats });
      }
    });
    child.on('exit', (code) => reject(new Error('sightline-server exited with ' + code + ' before it was ready')));
  });
}

// A seat's page: every WebSocket frame it receives (`frames`) and sends (`sent`), what it fetched,
// its errors. With `sockets`, the page's own WebSockets are kept in window.__sockets, so that a
// test can send over the page's connection what the page itself would never send.
async function openSeat(browser, url, viewport, options = {}) {
  const page = await browser.newPage();
  await page.setViewport(viewport);
  const cdp = await page.createCDPSession();
  await cdp.send('Network.enable');
  const frames = [];
  const sent = [];
  cdp.on('Network.webSocketFrameReceived', (e) => frames.push(e.response.payloadData));
  cdp.on('Network.webSocketFrameSent', (e) => sent.push(e.response.payloadData));
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  if (options.sockets) {
    await page.evaluateOnNewDocument(() => {
      const Native = window.WebSocket;
      const kept = [];
      Object.defineProperty(window, '__sockets', { value: kept });
      window.WebSocket = class extends Native {
        constructor(...a) {
          super(...a);
          kept.push(this);
        }
      };
    });
  }
  await page.goto(url, { waitUntil: 'load' });
  return { page, cdp, frames, sent, requests, errors };
}

const state = (seat) => seat.page.evaluate(() => window.sightlineTable.state());
async function waitState(seat, test, what, timeout = 15000) {
  const until = Date.now() + timeout;
  let s;
  while (Date.now() < until) {
    s = await state(seat);
    if (test(s)) return s;
    await sleep(80);
  }
  check(false, what, s && { connection: s.connection, message: s.message, view: s.view, figures: s.drawn.figures.map((f) => [f.id, f.cell]), battle: s.battleDrawn, defense: s.defenseDrawn });
}

async function shot(seat, name) {
  await seat.page.bringToFront();
  await sleep(150);  // a frame drawn in front
  await seat.page.screenshot({ path: path.join(outDir, name) });
}

// Nothing sticks out of the window: no sideways scroll, every control whole on screen and at
// least 44 px a side. The battle panel (or the defense cards' panel) scrolls up and down: its
// controls lie whole across it (and the window), its fields and check boxes' labels are 44 px high,
// and nothing in it scrolls sideways.
async function checkFit(seat, size) {
  const r = await seat.page.evaluate(() => {
    const out = { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, innerHeight: window.innerHeight, controls: [] };
    const battle = ['battle', 'defense'].map((id) => document.getElementById(id)).find((e) => e && !e.hidden) || null;
    const open = !!battle;
    out.sheet = open ? battle.id : null;
    const bb = open ? battle.getBoundingClientRect() : null;
    const fields = ['battle', 'defense'].map((id) => '#' + id + ' select, #' + id + ' input:not([type="checkbox"]), #' + id + ' label.check').join(', ');
    for (const el of document.querySelectorAll('button, #connection, ' + fields)) {
      const b = el.getBoundingClientRect();
      if (b.width === 0 && b.height === 0) continue;  // hidden
      const name = el.id || (el.dataset && (el.dataset.id || el.dataset.target)) || el.textContent.trim().slice(0, 24);
      out.controls.push({ id: name, check: el.matches('label.check'), inBattle: !!(open && battle.contains(el)), left: b.left, right: b.right, top: b.top, bottom: b.bottom, w: b.width, h: b.height });
    }
    const panel = document.getElementById('panel');
    out.panelOverflow = !panel.hidden && panel.scrollWidth > panel.clientWidth;
    if (open) {
      out.battle = { left: bb.left, right: bb.right, top: bb.top, bottom: bb.bottom, scrollWidth: battle.scrollWidth, clientWidth: battle.clientWidth };
      out.smallText = [];
      for (const el of battle.querySelectorAll('h2, h3, p, li, button, label, select, input, .tid, .badge, .chip, .csub, .stat span, .counts')) {
        const px = parseFloat(getComputedStyle(el).fontSize);
        if (el.getBoundingClientRect().width > 0 && px < 12) out.smallText.push([el.tagName, el.textContent.slice(0, 20), px]);
      }
    }
    return out;
  });
  check(r.scrollWidth <= r.innerWidth, size + ': no sideways scroll', r);
  for (const c of r.controls) {
    if (c.inBattle) {
      check(c.left >= r.battle.left - 0.5 && c.right <= r.battle.right + 0.5 && c.left >= 0 && c.right <= r.innerWidth + 0.5,
        size + ': the ' + r.sheet + '\'s ' + c.id + ' lies whole across the panel', [c, r.battle]);
      check(c.h >= 44 && (c.check || c.w >= 44), size + ': the ' + r.sheet + '\'s ' + c.id + ' is at least 44 px ' + (c.check ? 'high' : 'a side'), c);
    } else {
      check(c.left >= 0 && c.right <= r.innerWidth + 0.5 && c.top >= 0 && c.bottom <= r.innerHeight + 0.5, size + ': ' + c.id + ' lies whole in the window', c);
      check(c.w >= 44 && c.h >= 44, size + ': ' + c.id + ' is at least 44 px a side', c);
    }
  }
  check(!r.panelOverflow, size + ': the panel\'s text wraps inside it');
  if (r.battle) {
    check(r.battle.scrollWidth <= r.battle.clientWidth, size + ': nothing in the ' + r.sheet + ' panel scrolls sideways', r.battle);
    check(r.smallText.length === 0, size + ': the ' + r.sheet + ' panel\'s text is 12 px or more', r.smallText);
  }
}

// Every string in the page's JavaScript heap.
async function heapText(seat) {
  await seat.cdp.send('HeapProfiler.enable');
  let text = '';
  const onChunk = (e) => { text += e.chunk; };
  seat.cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  await seat.cdp.send('HeapProfiler.collectGarbage');
  await seat.cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  seat.cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
  return text;
}

// A finger (the phone) or the mouse (the laptop) on an element of the page, scrolled into view first.
async function press(seat, selector) {
  await seat.page.bringToFront();
  const el = await seat.page.waitForSelector(selector, { visible: true, timeout: 5000 });
  const enabled = await el.evaluate((e) => !e.disabled);
  check(enabled, 'the control ' + selector + ' is enabled to be pressed');
  if (seat.touch) await el.tap();
  else await el.click();
}
// Send over the page's own WebSocket (kept by openSeat's `sockets`) what the page would not send.
async function sendRaw(seat, msg) {
  const ok = await seat.page.evaluate((m) => {
    const s = window.__sockets.filter((w) => w.readyState === 1).pop();
    if (!s) return false;
    s.send(JSON.stringify(m));
    return true;
  }, msg);
  check(ok, 'the page\'s own connection is open to send ' + JSON.stringify(msg));
}

// Until no seat of `seats` has received a frame for `ms`: views an earlier action caused reach each
// seat on its own connection, some later than others, and must not be counted as caused by the next.
async function settle(seats, ms = 300) {
  let counts = seats.map((x) => x.frames.length);
  for (;;) {
    await sleep(ms);
    const now = seats.map((x) => x.frames.length);
    if (now.every((n, i) => n === counts[i])) return;
    counts = now;
  }
}

// Runs a test's main() within `seconds`: exit 0 when it passes, 1 with what failed.
function runMain(name, seconds, main) {
  const timer = setTimeout(() => {
    console.log('web ' + name + ': FAILED: over ' + seconds + ' s');
    process.exit(1);
  }, seconds * 1000);
  main().then(() => {
    clearTimeout(timer);
    process.exit(0);
  }, (e) => {
    console.log(String(e.message || e));
    process.exit(1);
  });
}

module.exports = {
  SKIP, root, arg, serverPath, cliPath, outDir, driver, launch, phone, laptop,
  check, checkCount, sleep, startServer, openSeat, state, waitState, shot, checkFit, heapText, runMain, press, sendRaw, settle,
};
