#!/usr/bin/env node
// Benchmark (not a test): the trained model's forward in the page. Opens the lab, chooses model
// mode (the model build and files load), then times attentionLab.setState({sentence}) for
// sentences of about 16, 64 and 127 BPE tokens (the context holds 128 with <|endoftext|>):
// setState runs the model's Forward on the whole sentence and every panel's numbers before it
// returns, so its time is what a learner waits after typing. Median of N calls per length, each
// on a different sentence (no cache). The budget: <= 50 ms for 128 tokens.
//
//   node tests/browser/bench_model_page.mjs --site build/wasm-release/site [--runs 7] [--browser /usr/bin/chromium]
//
// scripts/bench.sh --model-page builds the web bundle and runs this.
import { launchChromium } from './chromium.mjs';
import { startServer } from './server.mjs';

function parseArgs(argv) {
  const o = { site: null, runs: 7, browser: '/usr/bin/chromium' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i], v = () => { if (i + 1 >= argv.length) fail(`missing value after ${a}`); return argv[++i]; };
    if (a === '--site') o.site = v();
    else if (a === '--runs') o.runs = Number(v());
    else if (a === '--browser') o.browser = v();
    else fail(`unknown option ${a}`);
  }
  if (!o.site) fail('--site is required');
  if (!(Number.isInteger(o.runs) && o.runs >= 1)) fail('--runs must be a positive integer');
  return o;
}
function fail(msg) {
  console.error(`bench_model_page.mjs: ${msg}\nusage: node tests/browser/bench_model_page.mjs --site DIR [--runs N] [--browser PATH]`);
  process.exit(2);
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

// Words of both languages; a sentence of n words starting at word k of this list (cycled).
const WORDS = ('the cat sat on the mat and I love sushi very much while you read a long manual page about ' +
  'files я люблю суши и чай а ты читаешь длинную страницу руководства о файлах').split(' ');
const sentence = (n, k) => Array.from({ length: n }, (_, i) => WORDS[(k + i) % WORDS.length]).join(' ');

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const server = await startServer(o.site);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await launchChromium(o.browser);
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(base + 'index.html#lang=en');
    await page.waitForFunction(() => !!window.attentionLab, null, { timeout: 60000 });
    await page.evaluate(() => attentionLab.ready);
    await page.evaluate(() => attentionLab.setState({ projection: 'model', sentence: 'I love sushi' }));
    await page.waitForFunction(() => attentionLab.getModelStatus().load === 'ready', null, { timeout: 180000, polling: 250 });
    await page.waitForFunction(() => !!window.attentionLab && attentionLab.getModelStatus().load === 'ready', null, { timeout: 60000 });
    for (const words of [8, 32, 120]) {
      const times = [];
      let tokens = 0;
      for (let r = 0; r < o.runs; r++) {
        // Fit the context: drop words until the BPE tokens (with <|endoftext|>) are at most 128.
        let n = words;
        let res = null;
        for (;;) {
          const text = sentence(n, r * 3);
          res = await page.evaluate((text) => {
            const t0 = performance.now();
            const out = attentionLab.setState({ sentence: text, query: 0 });
            return { ms: performance.now() - t0, ok: out.ok, error: out.error, tokens: out.ok ? attentionLab.getTrace().model.ids.length : 0 };
          }, text);
          if (res.ok || n <= 1) break;
          n -= 1;  // too many tokens for the context
        }
        if (!res.ok) throw new Error(`setState refused: ${res.error}`);
        times.push(res.ms);
        tokens = res.tokens;
      }
      console.log(`${String(tokens).padStart(4)} tokens: setState ${median(times).toFixed(1)} ms median of ${o.runs} ` +
                  `(min ${Math.min(...times).toFixed(1)}, max ${Math.max(...times).toFixed(1)})`);
    }
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
