#!/usr/bin/env node
// Benchmark (not a test): training steps per second natively (`attnlab train`) and in the
// browser build (attentionLab.train in headless Chromium), on the same task, in one run.
//
//   node tests/browser/bench.mjs --site build/wasm-release/site --attnlab build/native-release/attnlab
//        [--steps 2000] [--rounds 3] [--task verb_object] [--browser /usr/bin/chromium]
//
// Native and browser runs alternate (native, browser, native, ...) so that both see the same
// load on a shared machine; the ratio of the medians is the number to read. The native time is
// the wall time of the whole `attnlab train` process (start-up is a few ms of it); the browser
// time is performance.now() around attentionLab.train(steps) inside the page (page load is not
// counted; the page is idle: not playing). scripts/bench.sh builds what is needed and runs this.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { startServer } from './lib/server.mjs';

function parseArgs(argv) {
  const o = { site: null, attnlab: null, steps: 2000, rounds: 3, task: 'verb_object', browser: '/usr/bin/chromium' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i], v = () => { if (i + 1 >= argv.length) fail(`missing value after ${a}`); return argv[++i]; };
    if (a === '--site') o.site = v();
    else if (a === '--attnlab') o.attnlab = v();
    else if (a === '--steps') o.steps = Number(v());
    else if (a === '--rounds') o.rounds = Number(v());
    else if (a === '--task') o.task = v();
    else if (a === '--browser') o.browser = v();
    else fail(`unknown option ${a}`);
  }
  if (!o.site || !o.attnlab) fail('--site and --attnlab are required');
  if (!(Number.isInteger(o.steps) && o.steps >= 1 && o.steps <= 5000)) fail('--steps must be an integer 1..5000 (the page API runs at most 5000 per call)');
  if (!(Number.isInteger(o.rounds) && o.rounds >= 1)) fail('--rounds must be a positive integer');
  return o;
}
function fail(msg) {
  console.error(`bench.mjs: ${msg}\nusage: node tests/browser/bench.mjs --site DIR --attnlab PATH [--steps N] [--rounds R] [--task NAME]`);
  process.exit(2);
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

const opts = parseArgs(process.argv.slice(2));
// The lab's default training settings with the task chosen; the same JSON for both sides.
const config = { task: opts.task };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-bench-'));
const cfgFile = path.join(tmp, 'task.json');
fs.writeFileSync(cfgFile, JSON.stringify({ ...config, steps: opts.steps }));

function nativeRun() {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(opts.attnlab, ['train', cfgFile, '--format', 'jsonl', '--every', String(opts.steps)], { encoding: 'utf8' });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`attnlab train exited ${r.status}: ${r.stderr}`);
  const last = r.stdout.trim().split('\n').map((l) => JSON.parse(l)).filter((x) => 'step' in x).pop();
  return { seconds, loss: last.loss };
}

const server = await startServer(opts.site);
const browser = await chromium.launch({
  executablePath: opts.browser, headless: true,
  args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--no-sandbox', '--disable-background-networking'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`http://127.0.0.1:${server.address().port}/index.html`, { waitUntil: 'load' });
  await page.waitForFunction(() => !!window.attentionLab, null, { timeout: 30000 });
  await page.evaluate(() => window.attentionLab.ready);
  async function browserRun() {
    return page.evaluate(({ config, steps }) => {
      const set = window.attentionLab.setState({ train: { ...config, play: false } });
      if (!set.ok) throw new Error('setState refused: ' + JSON.stringify(set));
      const t0 = performance.now();
      const r = window.attentionLab.train(steps);
      const seconds = (performance.now() - t0) / 1000;
      if (!r.ok) throw new Error('train refused: ' + JSON.stringify(r));
      return { seconds, loss: r.loss, step: r.step };
    }, { config, steps: opts.steps });
  }
  // setState resets the run only when a setting changes: reset between rounds by toggling the seed.
  const native = [], web = [];
  for (let round = 0; round < opts.rounds; ++round) {
    const n = nativeRun();
    await page.evaluate(() => window.attentionLab.setState({ train: { seed: 2 } }));
    await page.evaluate(() => window.attentionLab.setState({ train: { seed: 1 } }));
    const b = await browserRun();
    native.push(opts.steps / n.seconds);
    web.push(opts.steps / b.seconds);
    console.log(`round ${round + 1}: native ${(opts.steps / n.seconds).toFixed(0)} steps/s (loss ${n.loss.toExponential(3)}), ` +
                `browser ${(opts.steps / b.seconds).toFixed(0)} steps/s (loss ${Number(b.loss).toExponential(3)})`);
  }
  const mn = median(native), mb = median(web);
  console.log(`task ${opts.task}, ${opts.steps} steps per run, ${opts.rounds} rounds, ${os.cpus().length} cores: ` +
              `native ${mn.toFixed(0)} steps/s, browser ${mb.toFixed(0)} steps/s; native/browser = ${(mn / mb).toFixed(2)}`);
} finally {
  await browser.close();
  server.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
