#!/usr/bin/env node
// Benchmark (not a test): the trained model's forward in the page. Opens the lab, chooses model
// mode (the model build and files load), then times attentionLab.setState({sentence}) for
// sentences of about 16, 64 and 127 BPE tokens (the context holds 128 with <|endoftext|>):
// setState runs the model's Forward on the whole sentence and every panel's numbers before it
// returns, so its time is what a learner waits after typing. N calls per length, each on a
// different sentence (no cache), in one script run (no frame drawn between them); the median,
// quartiles and extremes. The budget: <= 50 ms for 128 tokens.
//
// --model DIR opens a GPT-2-family checkpoint instead of the lab's own (served under /checkpoint/,
// opened by #modelUrl: HTTP Range requests into the heap) and prints how long opening it took;
// the sentences are then about 8, 20 and 52 words (64 tokens or more) (the budget on GPT-2 small's shape:
// setState of 64 tokens <= 2 s, its forward <= 1.5 s).
//
// --profile FILE records Chromium's CPU profile of the calls (FILE.cpuprofile, for DevTools) and
// prints where their time went: the products (kernels::Gemm), tanh (GELU's, in double), the rest
// of the forward pass, the panels' numbers after it. Function names need a build with
// ATTNLAB_WASM_PROFILING=ON (scripts/bench.sh --model-page --profile does it in build/wasm-profile).
//
//   node tests/browser/bench_model_page.mjs --site build/wasm-release/site [--runs 15] [--model DIR] [--profile FILE] [--browser /usr/bin/chromium]
//
// scripts/bench.sh --model-page builds the web bundle and runs this.
import { launchChromium } from './lib/chromium.mjs';
import { startServer } from './lib/server.mjs';
import fs from 'node:fs';

function parseArgs(argv) {
  const o = { site: null, runs: 15, browser: '/usr/bin/chromium', profile: null, model: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i], v = () => { if (i + 1 >= argv.length) fail(`missing value after ${a}`); return argv[++i]; };
    if (a === '--site') o.site = v();
    else if (a === '--runs') o.runs = Number(v());
    else if (a === '--browser') o.browser = v();
    else if (a === '--profile') o.profile = v();
    else if (a === '--model') o.model = v();
    else fail(`unknown option ${a}`);
  }
  if (!o.site) fail('--site is required');
  if (!(Number.isInteger(o.runs) && o.runs >= 1)) fail('--runs must be a positive integer');
  return o;
}
function fail(msg) {
  console.error(`bench_model_page.mjs: ${msg}\nusage: node tests/browser/bench_model_page.mjs --site DIR [--runs N] [--model DIR] [--profile FILE] [--browser PATH]`);
  process.exit(2);
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

// Words of both languages; a sentence of n words starting at word k of this list (cycled).
const WORDS = ('the cat sat on the mat and I love sushi very much while you read a long manual page about ' +
  'files я люблю суши и чай а ты читаешь длинную страницу руководства о файлах').split(' ');

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const server = await startServer(o.site, o.model ? { '/checkpoint/': o.model } : {});
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await launchChromium(o.browser);
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(base + 'index.html#lang=en');
    await page.waitForFunction(() => !!window.attentionLab, null, { timeout: 60000 });
    await page.evaluate(() => attentionLab.ready);
    const t0 = Date.now();
    if (o.model) {
      const st = await page.evaluate(() => attentionLab.loadModel({ url: 'checkpoint/' }));
      const m = st.model;
      console.log(`opened ${o.model}: ${m.layers} layers x ${m.heads} heads x ${m.dModel}, ${m.dtype}, ${(m.fileBytes / 1e6).toFixed(1)} MB ` +
                  `in ${((Date.now() - t0) / 1000).toFixed(1)} s (the full build, the files from this machine, the weights into the heap)`);
      await page.evaluate(() => attentionLab.setState({ sentence: 'I love sushi' }));
    } else {
      await page.evaluate(() => attentionLab.setState({ projection: 'model', sentence: 'I love sushi' }));
    }
    await page.waitForFunction(() => attentionLab.getModelStatus().load === 'ready', null, { timeout: 180000, polling: 250 });
    await page.waitForFunction(() => !!window.attentionLab && attentionLab.getModelStatus().load === 'ready', null, { timeout: 60000 });
    const cdp = o.profile ? await page.context().newCDPSession(page) : null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await cdp.send('Profiler.start');
    }
    for (const words of o.model ? [8, 20, 52] : [8, 32, 120]) {
      const r = await page.evaluate(function setStateCalls({ words, runs, list }) {  // the profile's marker
        const all = list.split(' ');
        const sentence = (n, k) => Array.from({ length: n }, (_, i) => all[(k + i) % all.length]).join(' ');
        const times = [];
        for (let run = 0; run < runs; run++) {
          // Fit the context: drop words until the BPE tokens (with <|endoftext|>) are at most 128.
          for (let n = words; ; n--) {
            const t0 = performance.now();
            const out = attentionLab.setState({ sentence: sentence(n, run * 3), query: 0 });
            const ms = performance.now() - t0;
            if (out.ok) { times.push(ms); break; }
            if (n <= 1) return { error: out.error };
          }
        }
        return { times };
      }, { words, runs: o.runs, list: WORDS.join(' ') });
      if (r.error) throw new Error(`setState refused: ${r.error}`);
      r.tokens = await page.evaluate(() => attentionLab.getTrace().model.ids.length);  // the last call's (getTrace: heavy on a big model)
      const t = [...r.times].sort((a, b) => a - b), q = (f) => t[Math.min(t.length - 1, Math.floor(f * t.length))];
      console.log(`${String(r.tokens).padStart(4)} tokens: setState ${median(t).toFixed(1)} ms median of ${o.runs} ` +
                  `(quartiles ${q(0.25).toFixed(1)}-${q(0.75).toFixed(1)}, min ${t[0].toFixed(1)}, max ${t[t.length - 1].toFixed(1)})`);
    }
    if (cdp) {
      const { profile } = await cdp.send('Profiler.stop');
      fs.writeFileSync(o.profile.endsWith('.cpuprofile') ? o.profile : o.profile + '.cpuprofile', JSON.stringify(profile));
      printProfile(profile);
    }
  } finally {
    await browser.close();
    server.close();
  }
}

// Where the setState calls' time went: each sample inside the benchmark's own script, by the
// first of these that its stack holds (inclusive), else by its own function.
function printProfile(p) {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of p.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const name = (n) => n.callFrame.functionName || n.callFrame.url || '(anonymous)';
  const groups = [['the products (kernels::Gemm)', /kernels::Gemm/], ['tanh (GELU, double)', /^(tanh|expm1)$/],
                  ['the panels after the forward (FinishLab)', /FinishLab/], ['the rest of the forward (model::Forward)', /model::Forward/]];
  const ms = new Map();
  let total = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const stack = [];
    for (let id = p.samples[i]; id !== undefined; id = parent.get(id)) stack.push(name(byId.get(id)));
    if (!stack.includes('setStateCalls')) continue;  // frames drawn, getTrace, idle: not a setState call
    const dt = (p.timeDeltas[i + 1] || 0) / 1000;
    total += dt;
    const g = groups.find(([, re]) => stack.some((f) => re.test(f)));
    const key = g ? g[0] : `other: ${stack[0].slice(0, 70)}`;
    ms.set(key, (ms.get(key) || 0) + dt);
  }
  console.log(`profile: ${total.toFixed(0)} ms in the calls (with the profiler's overhead)`);
  [...ms.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12)
    .forEach(([k, v]) => console.log(`${(100 * v / total).toFixed(1).padStart(6)} %  ${k}`));
}

main().catch((e) => { console.error(e); process.exit(1); });
