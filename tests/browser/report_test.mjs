// Opens the report `inferperf plot` writes in headless Debian chromium (driven by playwright-core)
// twice: served by `inferperf plot --dashboard` on 127.0.0.1, and from disk. Checks that the page
// logs no console error, makes no request but the page itself, and shows every chart of
// plots.json as a non-empty inline SVG.
//   node report_test.mjs INFERPERF_BIN FIXTURE_DIR
// Exit 0 passed, 1 failed, 77 skipped (no chromium, no node_modules, no gnuplot).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SKIP = 77;
const CHROMIUM = '/usr/bin/chromium';
const here = path.dirname(fileURLToPath(import.meta.url));
const [inferperf, fixture] = process.argv.slice(2);
if (!inferperf || !fixture) {
  console.error('usage: node report_test.mjs INFERPERF_BIN FIXTURE_DIR');
  process.exit(2);
}
const skip = (why) => {
  console.log(`SKIP: ${why}`);
  process.exit(SKIP);
};
if (!fs.existsSync(CHROMIUM)) skip(`${CHROMIUM} missing (apt-get install chromium)`);
const pwEntry = path.join(here, 'node_modules', 'playwright-core', 'index.mjs');
if (!fs.existsSync(pwEntry)) skip('tests/browser/node_modules missing (run npm ci in tests/browser)');
if (spawnSync('/bin/sh', ['-c', 'command -v gnuplot']).status !== 0) skip('gnuplot missing');
const { chromium } = await import(pathToFileURL(pwEntry).href);

const failures = [];
const check = (ok, what) => {
  if (!ok) failures.push(what);
};

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'inferperf-browser-'));
const out = path.join(work, 'plots');
let server;
let context;

// Starts the dashboard and resolves with the URL it prints.
function startDashboard() {
  return new Promise((resolve, reject) => {
    server = spawn(inferperf, ['plot', fixture, '--output', out, '--dashboard', '--host',
      '127.0.0.1', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no listening line in 90 s:\n${text}`)), 90000);
    const onData = (d) => {
      text += d;
      const m = text.match(/dashboard listening on (http:\/\/127\.0\.0\.1:\d+\/)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    server.stdout.on('data', onData);
    server.stderr.on('data', onData);
    server.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`inferperf plot exited ${code} before listening:\n${text}`));
    });
  });
}

// Loads `url` in a fresh page and checks it; `label` names the case in failures.
async function checkPage(url, label, charts) {
  const page = await context.newPage();
  const errors = [];
  const requests = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('request', (r) => requests.push(r.url()));
  const response = await page.goto(url, { waitUntil: 'load' });
  check(response && response.ok(), `${label}: page status ${response && response.status()}`);
  // Anything the page would fetch late (fonts, images) has had time to start by now.
  await page.waitForTimeout(500);
  check(errors.length === 0, `${label}: console errors: ${errors.join(' | ')}`);
  const others = requests.filter((u) => u !== url);
  check(others.length === 0, `${label}: requests besides the page: ${others.join(', ')}`);

  const found = await page.evaluate(() => Array.from(document.querySelectorAll('figure.chart'))
    .map((f) => {
      const svg = f.querySelector('svg');
      const box = svg ? svg.getBoundingClientRect() : { width: 0, height: 0 };
      return {
        name: f.dataset.chart,
        id: f.id,
        width: box.width,
        height: box.height,
        shapes: svg ? svg.querySelectorAll('path, polyline, polygon, rect, circle, use').length : 0,
        title: f.querySelector('h2') ? f.querySelector('h2').textContent : '',
      };
    }));
  const byName = new Map(found.map((f) => [f.name, f]));
  check(found.length === charts.length,
    `${label}: ${found.length} charts in the DOM, plots.json lists ${charts.length}`);
  for (const c of charts) {
    const f = byName.get(c.name);
    if (!f) {
      failures.push(`${label}: chart ${c.name} missing from the DOM`);
      continue;
    }
    check(f.id === `chart-${c.name}`, `${label}: ${c.name}: id ${f.id}`);
    check(f.width > 300 && f.height > 100, `${label}: ${c.name}: svg is ${f.width}x${f.height}`);
    check(f.shapes >= 10, `${label}: ${c.name}: only ${f.shapes} shapes in its svg`);
    check(f.title === c.title, `${label}: ${c.name}: heading "${f.title}"`);
  }
  const rows = await page.locator('#key-metrics tbody tr').count();
  check(rows >= 4, `${label}: key metrics table has ${rows} rows`);
  await page.close();
  return found.length;
}

let exitCode = 0;
try {
  const url = await startDashboard();
  const manifest = JSON.parse(fs.readFileSync(path.join(out, 'plots.json'), 'utf8'));
  check(manifest.charts.length >= 20, `only ${manifest.charts.length} charts written`);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'inferperf-chromium-'));
  // playwright hands `profile` (fresh, empty) to chromium as its --user-data-dir.
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const served = await checkPage(url, 'dashboard', manifest.charts);
  const fromDisk = await checkPage(pathToFileURL(path.join(out, 'report.html')).href, 'file',
    manifest.charts);
  await context.close();
  context = undefined;
  fs.rmSync(profile, { recursive: true, force: true });
  console.log(`charts in the DOM: ${served} served, ${fromDisk} from disk`);
} catch (e) {
  failures.push(String(e && e.stack ? e.stack : e));
} finally {
  if (context) await context.close().catch(() => {});
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    const code = await exited;
    check(code === 0, `dashboard exited ${code} on SIGTERM`);
  }
  fs.rmSync(work, { recursive: true, force: true });
}
if (failures.length) {
  console.error(`FAILED:\n  ${failures.join('\n  ')}`);
  exitCode = 1;
} else {
  console.log('PASSED: report opens in chromium with every chart, no console error, no request');
}
process.exit(exitCode);
