#!/usr/bin/env node
// Benchmark (not a test): what the default page costs to load. Prints every file the page
// loads (bytes raw and gzipped at level 9, as a server would send them) with the total, then the
// time to the first interactive frame over N cold loads in headless Chromium: from the start of
// navigation to attentionLab.ready (the lab has drawn its first complete frame and applied the
// link), each load in a fresh browser context (empty caches).
//
//   node tests/browser/bench_payload.mjs --site build/wasm-release/site [--loads 7] [--link HASH] [--browser /usr/bin/chromium]
//
// --link '#projection=model': the page opened with that link instead (the files it loads, and
// the time to ready; in model mode, to the model loaded too).
//
// scripts/bench.sh --payload builds the web bundle and runs this. The budget: <= 500 KB
// gzipped in all, <= 1.0 s median to ready on the project's 2-core machine.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { launchChromium } from './lib/chromium.mjs';
import { startServer } from './lib/server.mjs';

function parseArgs(argv) {
  const o = { site: null, loads: 7, browser: '/usr/bin/chromium', link: '' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i], v = () => { if (i + 1 >= argv.length) fail(`missing value after ${a}`); return argv[++i]; };
    if (a === '--site') o.site = v();
    else if (a === '--loads') o.loads = Number(v());
    else if (a === '--browser') o.browser = v();
    else if (a === '--link') o.link = v();
    else fail(`unknown option ${a}`);
  }
  if (!o.site) fail('--site is required');
  if (!(Number.isInteger(o.loads) && o.loads >= 1)) fail('--loads must be a positive integer');
  return o;
}
function fail(msg) {
  console.error(`bench_payload.mjs: ${msg}\nusage: node tests/browser/bench_payload.mjs --site DIR [--loads N] [--link HASH] [--browser PATH]`);
  process.exit(2);
}

const kb = (n) => (n / 1024).toFixed(1).padStart(8);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const server = await startServer(o.site);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await launchChromium(o.browser);
  const times = [];
  let files = null;
  try {
    for (let i = 0; i < o.loads; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
      const page = await context.newPage();
      const loaded = [];
      page.on('response', (r) => { if (r.url().startsWith(base)) loaded.push(new URL(r.url()).pathname.slice(1) || 'index.html'); });
      await page.goto(base + 'index.html' + o.link, { waitUntil: 'commit' });
      await page.waitForFunction(() => !!window.attentionLab, null, { timeout: 60000 });
      let ms = await page.evaluate(() => attentionLab.ready.then(() => performance.now()));
      if (/projection=model/.test(o.link)) {  // the model loaded too, in whichever build
        await page.waitForFunction(() => attentionLab.getModelStatus().load === 'ready', null, { polling: 20, timeout: 120000 });
        ms = await page.evaluate(() => performance.now());
      }
      times.push(ms);
      if (!files) files = [...new Set(loaded)];
      await context.close();
    }
  } finally {
    await browser.close();
    server.close();
  }
  console.log(`files the page loads (${base}index.html${o.link}):`);
  console.log(`  ${'file'.padEnd(16)} ${'raw KB'.padStart(8)} ${'gzip KB'.padStart(8)}`);
  let raw = 0, gz = 0;
  for (const f of files) {
    const bytes = fs.readFileSync(path.join(o.site, f));
    const z = zlib.gzipSync(bytes, { level: 9 }).length;
    raw += bytes.length; gz += z;
    console.log(`  ${f.padEnd(16)} ${kb(bytes.length)} ${kb(z)}`);
  }
  console.log(`  ${'total'.padEnd(16)} ${kb(raw)} ${kb(gz)}   (budget: 500 KB gzipped)`);
  console.log(`time to ready${/projection=model/.test(o.link) ? ' with the model loaded' : ''} over ${o.loads} cold loads: median ${(median(times) / 1000).toFixed(2)} s ` +
              `(min ${(Math.min(...times) / 1000).toFixed(2)}, max ${(Math.max(...times) / 1000).toFixed(2)}; budget 1.0 s)`);
}

main().catch((e) => { console.error(`bench_payload.mjs: ${e && e.stack || e}`); process.exit(1); });
