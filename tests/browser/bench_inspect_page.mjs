#!/usr/bin/env node
// Benchmark (not a test): the Prediction tab's tools in the page (issue 40), beside the native
// numbers of `bench_gpt2 --inspect` (scripts/bench.sh --inspect): on the lab's own model, or with
// --model DIR on a checkpoint (served under /checkpoint/, opened by #modelUrl):
//   lens         getLens() on a fresh sentence of ~64 tokens (the forward done by setState first)
//   attribution  getAttribution() on it, every head and source token
//   patching     runPatching({what: 'resid'}) of two 16-token prompts, every (layer, position)
//   generate     generate({n: 32, temperature: 0}) after a ~64-token prompt, with the cache
// and, on the lab's own model, what a learner waits per change: setState of a new sentence plus
// the lens and the attribution (the issue: under 100 ms). Medians of --runs (3), one page.
//
//   node tests/browser/bench_inspect_page.mjs --site build/wasm-release/site [--model DIR] [--runs 3]
//
// scripts/bench.sh --inspect-page [--model DIR] builds the web bundle and runs this.
import { launchChromium } from './lib/chromium.mjs';
import { startServer } from './lib/server.mjs';

function parseArgs(argv) {
  const o = { site: null, runs: 3, browser: '/usr/bin/chromium', model: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i], v = () => { if (i + 1 >= argv.length) fail(`missing value after ${a}`); return argv[++i]; };
    if (a === '--site') o.site = v();
    else if (a === '--runs') o.runs = Number(v());
    else if (a === '--browser') o.browser = v();
    else if (a === '--model') o.model = v();
    else fail(`unknown option ${a}`);
  }
  if (!o.site) fail('--site is required');
  if (!(Number.isInteger(o.runs) && o.runs >= 1)) fail('--runs must be a positive integer');
  return o;
}
function fail(msg) {
  console.error(`bench_inspect_page.mjs: ${msg}\nusage: node tests/browser/bench_inspect_page.mjs --site DIR [--model DIR] [--runs N] [--browser PATH]`);
  process.exit(2);
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

const WORDS = ('the cat sat on the mat and I love sushi very much while you read a long manual page about ' +
  'files я люблю суши и чай а ты читаешь длинную страницу руководства о файлах').split(' ');
const sentence = (n, k) => Array.from({ length: n }, (_, i) => WORDS[(k + i) % WORDS.length]).join(' ');

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const server = await startServer(o.site, o.model ? { '/checkpoint/': o.model } : {});
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await launchChromium(o.browser);
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    const hash = o.model ? '#projection=model&view=prediction&modelUrl=' + encodeURIComponent(base + 'checkpoint/') : '#projection=model&view=prediction';
    await page.goto(base + 'index.html' + hash);
    await page.waitForFunction(() => !!window.attentionLab, null, { timeout: 60000 });
    await page.evaluate(() => window.attentionLab.ready);
    await page.waitForFunction(() => {
      try { return window.attentionLab.getModelStatus().load === 'ready' && !!window.attentionLab.getTrace().model; } catch (e) { return false; }
    }, null, { timeout: 900000, polling: 500 });
    const rows = { lens: [], attribution: [], patching: [], generate: [], change: [] };
    for (let r = 0; r < o.runs; ++r) {
      const long = sentence(o.model ? 48 : 30, 3 * r), a16 = sentence(8, 7 * r);
      const res = await page.evaluate(async (p) => {
        const lab = window.attentionLab, now = () => performance.now();
        const out = {};
        lab.setState({ sentence: p.long });
        let t0 = now(); const l = lab.getLens(); out.lens = now() - t0; out.lensTokens = l.tokens && l.tokens.length;
        t0 = now(); lab.getAttribution(); out.attribution = now() - t0;
        // a change as a learner makes it: the sentence, its lens and attribution
        t0 = now(); lab.setState({ sentence: p.long + ' x' }); lab.getLens(); lab.getAttribution(); out.change = now() - t0;
        // patching: two words after the first swapped (each word is its own pieces: as many tokens)
        const words = p.a16.split(' ');
        const corrupted = [words[0], words[2], words[1], ...words.slice(3)].join(' ');
        t0 = now(); const pr = await lab.runPatching({ clean: p.a16, corrupted, what: 'resid' }); out.patching = now() - t0;
        out.patchRuns = pr.ok ? pr.total : pr.error;
        lab.setState({ sentence: p.long });
        t0 = now(); const g = await lab.generate({ n: 32, temperature: 0 }); out.generate = now() - t0;
        out.generated = g.ok ? g.tokens.length : g.error;
        return out;
      }, { long, a16 });
      for (const k of Object.keys(rows)) rows[k].push(res[k]);
      console.log(`run ${r + 1}: ${JSON.stringify(res)}`);
    }
    console.log(`\n${o.model ? o.model : "the lab's own model"}: medians of ${o.runs} runs (ms, wall time of the page API call)`);
    for (const [k, xs] of Object.entries(rows)) console.log(`  ${k.padEnd(12)} ${median(xs).toFixed(0).padStart(8)}`);
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
