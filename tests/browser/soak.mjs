#!/usr/bin/env node
// Soak test of the Attention Lab page (issue 14; scripts/soak.sh; not a CI test, its short
// smoke is in scripts/test.sh): one page, driven for --seconds with random actions, valid
// (setState with valid values, clicks on the canvas's tabs and controls, typing in the sentence
// box, training, play, the probe and the other panels, switching languages, links, exports) and
// invalid (out-of-range and mistyped values, unknown fields, non-objects, bad train() steps,
// malformed link hashes, junk postMessages), and the trained model's mode: the run starts by
// choosing it once (the page switches to the model's build and loads the files), then goes in
// and out of it with layers, heads, "Train it more" runs, stops and resets (--no-model: never). Reports console errors and uncaught exceptions
// (must be 0), refusals handled, and the wasm heap (its linear memory, in MB) every 10 s, which
// must not grow without bound: the run fails if the heap grows by more than --max-growth MB
// (default 32) over the second half of the run. The heap is wasm memory, which never shrinks:
// it grows to the largest state the random actions have reached so far, so a run shorter than
// kHeapCheckSeconds (the 20-s smoke of scripts/test.sh) still sets such marks in its second half
// (seen in CI: +34 MB between 11 and 20 s, +50 MB between 10 and 22 s) and only prints its heap. The page must
// still answer at the end.
//
//   node tests/browser/soak.mjs --site build/wasm-release/site [--seconds 600] [--seed 1]
//        [--max-growth 32] [--json FILE] [--no-model] [--browser /usr/bin/chromium]
import fs from 'node:fs';
import { chromium } from 'playwright-core';
import { startServer } from './lib/server.mjs';

const opts = { site: null, seconds: 600, seed: 1, maxGrowth: 32, json: null, model: true, browser: '/usr/bin/chromium' };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i], v = () => process.argv[++i];
  if (a === '--site') opts.site = v();
  else if (a === '--seconds') opts.seconds = Number(v());
  else if (a === '--seed') opts.seed = Number(v());
  else if (a === '--max-growth') opts.maxGrowth = Number(v());
  else if (a === '--json') opts.json = v();
  else if (a === '--browser') opts.browser = v();
  else if (a === '--no-model') opts.model = false;
  else { console.error(`soak.mjs: unknown option ${a}`); process.exit(2); }
}
if (!opts.site || !(opts.seconds > 0)) { console.error('usage: node tests/browser/soak.mjs --site DIR [--seconds N] [--seed S]'); process.exit(2); }

// A small seeded generator (mulberry32): a run can be repeated with its --seed.
let rs = opts.seed >>> 0;
function rand() { rs = (rs + 0x6D2B79F5) >>> 0; let t = rs; t = Math.imul(t ^ (t >>> 15), t | 1); t ^= t + Math.imul(t ^ (t >>> 7), t | 61); return ((t ^ (t >>> 14)) >>> 0) / 4294967296; }
const pick = (a) => a[Math.floor(rand() * a.length)];
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
const logUniform = (lo, hi) => Math.exp(Math.log(lo) + rand() * (Math.log(hi) - Math.log(lo)));

const SENTENCES = ['я люблю суши', 'I love sushi', 'Мы любим кофе, а вы — чай!', 'the cat sat on the mat',
                   'кто-то don\'t 123 ✓', 'a', 'один два три четыре пять шесть семь восемь девять десять'];
const NORMALIZERS = ['softmax', 'sparsemax', 'relunorm', 'sigmoid', 'none', 'hardmax'];
const VIEWS = ['steps', 'weights', 'vectors', 'information', 'whatif', 'training', 'normalization'];
const TASKS = ['verb_object', 'previous', 'reverse', 'max'];
const PARTS = ['header', 'share', 'lesson', 'training', 'normalization', 'sentence', 'settings', 'steps', 'weights',
               'vectors', 'information', 'whatif', 'projection', 'scaling', 'mask', 'heads', 'sizes', 'seed'];

function validPatch() {
  const heads = int(1, 8);
  const p = pick([
    () => ({ sentence: pick(SENTENCES) }),
    () => ({ query: int(0, 2) }),
    () => ({ temperature: logUniform(1e-3, 1e3) }),
    () => ({ normalizer: pick(NORMALIZERS) }),
    () => ({ projection: pick(['identity', 'random']), seed: int(0, 4294967295) }),
    () => ({ scaled: rand() < 0.5, positional: rand() < 0.5, causal: rand() < 0.5 }),
    () => ({ dModel: int(1, 64), dK: int(1, 64), dV: int(1, 64) }),
    () => ({ heads, head: int(0, heads - 1) }),
    () => ({ lang: pick(['en', 'ru']) }),
    () => ({ view: pick(VIEWS) }),
    () => ({ train: { task: pick(TASKS), lr: logUniform(1e-3, 1), batch: int(1, 64) } }),
    () => ({ train: { normalizer: pick(NORMALIZERS), scaled: rand() < 0.5, heads: int(1, 4), dK: int(1, 32) } }),
    () => ({ train: { compare: pick(['', 'scaled', 'normalizer:sparsemax', 'optimizer:sgd', 'lr:0.1', 'dK:4']) } }),
    () => ({ train: { play: rand() < 0.5, speed: int(0, 64) } }),
    () => ({ hide: rand() < 0.7 ? '' : pick(PARTS), lock: rand() < 0.7 ? '' : pick(PARTS) }),
    // what if (issue 23): some of these are refused (a token past the end, deleting the query)
    () => ({ whatIfToken: int(-1, 3), whatIfWith: pick(['', 'рис', 'tea', 'очень']), whatIfMode: pick(['replace', 'insert']),
             view: pick(['whatif', 'weights', 'vectors', 'information']) }),
    () => ({ shuffle: pick(['off', 'reverse', 'seeded']), shuffleSeed: int(0, 1000), view: 'whatif' }),
    () => ({ knockoutKeys: pick(['', '0', '1,2', '0,1,2']), knockoutHeads: pick(['', '0:0', '0:1']) }),
    () => ({ valueToken: int(-1, 2), valueA: rand() * 4 - 2, valueB: rand() * 4 - 2, view: pick(['vectors', 'whatif']) }),
    ...(opts.model ? [
      () => ({ projection: 'model', layer: int(0, 3), head: int(0, 3), query: int(0, 3) }),
      () => ({ projection: 'model', sentence: pick(SENTENCES), view: pick(['steps', 'weights', 'vectors', 'information', 'sentence']) }),
      () => ({ tuneSteps: int(1, 20), tuneBatch: int(1, 4), tuneLength: int(2, 64), tuneLr: logUniform(1e-5, 0.1), tuneText: pick(['auto', 'en', 'ru', 'own']) }),
    ] : []),
  ])();
  return p;
}
function invalidPatch() {
  return pick([
    () => ({ temperature: pick([-1, 0, 1e9, 'hot', null, [], {}]) }),
    () => ({ query: pick([-1, 1e9, 0.5, '1', true]) }),
    () => ({ sentence: pick(['', '   ', 'x '.repeat(100), 'я'.repeat(3000), 42]) }),
    () => ({ normalizer: pick(['softermax', '', 7]) }),
    () => ({ dModel: pick([0, 65, 1e300, -3, 'eight']) }),
    () => ({ heads: 9 }),
    () => ({ head: 99 }),
    () => ({ lang: 'fr' }),
    () => ({ view: 'nowhere' }),
    () => ({ train: { lr: pick([0, -1, 11, 'fast']) } }),
    () => ({ train: { batch: 1000, unknownField: 1 } }),
    () => ({ train: pick([5, 'x', null, []]) }),
    () => ({ hide: pick(['nothing-such', 5, ['training', 3]]) }),
    () => ({ noSuchField: 1 }),
    () => ({ seed: pick([-1, 2 ** 33, 1.5]) }),
    () => ({ projection: 'model', layer: pick([-1, 4, 16, 1.5, 'top']) }),
    () => ({ projection: 'model', head: pick([4, -1, 'h']) }),
    () => ({ tuneSteps: pick([0, 1e9, 'many']), tuneLr: pick([0, -1, 1]) }),
    () => ({ projection: 'model', sentence: 'слово '.repeat(40) }),
    () => ({ whatIfToken: pick([-2, 99, 1.5, 'x']), whatIfWith: pick(['два слова', 'ж'.repeat(3000), 5]) }),
    () => ({ knockoutKeys: pick(['a', '99', 5, '1,,2']), knockoutHeads: pick(['9:9', 'x', '0:']) }),
    () => ({ valueToken: 0, valueA: pick([NaN, 1e9, 'far', null]) }),
  ])();
}

const server = await startServer(opts.site);
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({
  executablePath: opts.browser, headless: true,
  args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--no-sandbox', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
const page = await context.newPage();
const consoleErrors = [], pageErrors = [];
page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
page.on('pageerror', (e) => pageErrors.push(String((e && e.stack) || e).split('\n').slice(0, 3).join(' ')));
page.on('crash', () => pageErrors.push('the page crashed'));
// Keep the wasm module's memory where the soak can read its size (the module is not global).
await page.addInitScript(() => {
  const keep = (result) => {
    const inst = result && (result.instance || result);
    const ex = inst && inst.exports;
    if (ex) for (const k of Object.keys(ex)) if (ex[k] instanceof WebAssembly.Memory) window.__soakMemory = ex[k];
    return result;
  };
  for (const name of ['instantiate', 'instantiateStreaming']) {
    const orig = WebAssembly[name];
    if (orig) WebAssembly[name] = function (...args) { return orig.apply(this, args).then(keep); };
  }
});
await page.goto(base + 'index.html', { waitUntil: 'load' });
await page.waitForFunction(() => !!window.attentionLab, null, { timeout: 30000 });
await page.evaluate(() => window.attentionLab.ready);

const heapMB = () => page.evaluate(() => (window.__soakMemory ? window.__soakMemory.buffer.byteLength / 1048576 : -1));
const counts = { actions: 0, valid: 0, invalid: 0, refusals: 0, typeErrors: 0, accepted: 0, clicks: 0, typed: 0,
                 trained: 0, links: 0, exports: 0, messages: 0, reloads: 0, tuned: 0, modelReady: false };

// The model first (the switch to the model's build happens early, so the heap's second half
// compares like with like), then back to the default lab.
if (opts.model) {
  await page.evaluate(() => window.attentionLab.setState({ projection: 'model', sentence: 'я люблю суши' }));
  const t1 = Date.now();
  while (Date.now() - t1 < 120000) {
    const st = await page.evaluate(() => window.attentionLab.getModelStatus().load);
    if (st === 'ready' || st === 'failed') { counts.modelReady = st === 'ready'; break; }
    await page.waitForTimeout(200);
  }
  if (!counts.modelReady) pageErrors.push('the model did not load');
  await page.evaluate(() => window.attentionLab.setState({ projection: 'identity' }));
}
const samples = [{ t: 0, heapMB: await heapMB() }];
const t0 = Date.now();
let nextSample = 10000;

// Runs a page-side call; an ok:false answer or a TypeError is a refusal handled.
async function call(fn, arg) {
  const r = await page.evaluate(([fn, arg]) => {
    try {
      const lab = window.attentionLab;
      const out = fn === 'setState' ? lab.setState(arg) : fn === 'train' ? lab.train(arg)
        : fn === 'runNormalization' ? lab.runNormalization(arg) : fn === 'tuneModel' ? lab.tuneModel(arg) : lab[fn]();
      return { ok: !(out && out.ok === false), field: out && out.field };
    } catch (e) { return { ok: false, threw: String(e && e.name) }; }
  }, [fn, arg]);
  if (!r.ok) { counts.refusals++; if (r.threw === 'TypeError') counts.typeErrors++; } else counts.accepted++;
  return r;
}

while (Date.now() - t0 < opts.seconds * 1000) {
  counts.actions++;
  const roll = rand();
  try {
    if (roll < 0.30) { counts.valid++; await call('setState', validPatch()); }
    else if (roll < 0.45) { counts.invalid++; await call('setState', invalidPatch()); }
    else if (roll < 0.47) { counts.invalid++; await call('setState', pick([null, 5, 'temperature=1', [1, 2]])); }
    else if (roll < 0.65) {  // a click (or a short drag) somewhere on the lab: tabs, buttons, sliders, tokens
      counts.clicks++;
      const x = int(5, 1275), y = int(5, 795);
      if (rand() < 0.8) await page.mouse.click(x, y);
      else { await page.mouse.move(x, y); await page.mouse.down(); await page.mouse.move(x + int(-80, 80), y + int(-10, 10), { steps: 4 }); await page.mouse.up(); }
    } else if (roll < 0.72) {  // typing in the sentence box, Latin and Cyrillic, and backspaces
      counts.typed++;
      await page.mouse.click(300, 101);
      await page.keyboard.type(pick([' мир', ' world', 'ё', '—', '!', ' 42']), { delay: 5 });
      if (rand() < 0.5) for (let k = int(1, 6); k > 0; k--) await page.keyboard.press('Backspace');
      await page.keyboard.press(pick(['Enter', 'Tab', 'Escape']));
    } else if (roll < 0.80) {  // training
      counts.trained++;
      if (rand() < 0.8) await call('train', pick([int(0, 200), int(0, 200), -1, 5001, 1.5, 'ten']));
      else await call('setState', { view: 'training', train: { play: rand() < 0.6 } });
    } else if (roll < 0.84) {  // reading: trace, link, snippet, training, normalization
      counts.links++;
      await call(pick(['getTrace', 'getLink', 'getEmbedSnippet', 'getTraining', 'getNormalization', 'getState']));
    } else if (roll < 0.86) {  // the probe and the information panel: show it, then click its area
      await call('setState', { view: 'information' });
      for (let k = 0; k < 3; k++) { counts.clicks++; await page.mouse.click(int(700, 1270), int(150, 790)); }
    } else if (roll < 0.87) {
      if (opts.model && rand() < 0.6) {  // "Train it more": a short run, a stop, a reset, the status
        counts.tuned++;
        const what = pick(['tuneModel', 'tuneModel', 'stopTune', 'resetTune', 'getModelStatus']);
        await call(what, what === 'tuneModel' ? pick([{ steps: int(1, 5) }, { steps: -1 }, { steps: 1e9 }, 'x', null]) : undefined);
      } else await call('runNormalization', pick([{ seeds: 1, steps: 20 }, { seeds: 0 }, { steps: 1e9 }, 'x']));
    } else if (roll < 0.90) {  // a link hash, valid or not
      counts.links++;
      const hash = pick(['#sentence=I%20love%20sushi&query=2', '#lang=ru&view=weights', '#temperature=abc&x=%ZZ',
                         '#train.task=reverse&train.play=1', '#' + 'a='.repeat(200), '#hide=training,normalization',
                         '#heads=4&head=3&dK=8&projection=random']);
      await page.evaluate((h) => { location.hash = h; }, hash);
    } else if (roll < 0.93) {  // postMessage from "a course page", valid and junk
      counts.messages++;
      const msg = pick([{ type: 'attentionLab:setState', state: validPatch(), id: 1 },
                        { type: 'attentionLab:setState', state: invalidPatch(), id: 2 },
                        { type: 'attentionLab:train', steps: int(0, 50), id: 3 }, { type: 'attentionLab:nope' },
                        'junk', { type: 'attentionLab:getTrace' }, null]);
      await page.evaluate((m) => window.postMessage(m, '*'), msg);
    } else if (roll < 0.95) {  // an export
      counts.exports++;
      await page.evaluate((a) => window.attentionLab.export(a).catch(() => null),
        pick([{ what: 'weights', format: 'csv' }, { what: 'trace', format: 'json' }, { what: 'weights', format: 'svg' },
              { what: 'nothing', format: 'png' }, { what: 'loss', format: 'svg' }]));
    } else if (roll < 0.998) {  // let it draw a few frames
      await page.waitForTimeout(int(20, 300));
    } else {  // rarely: reset hide/lock so that the run is not stuck on a bare page
      await call('setState', { hide: '', lock: '', view: pick(VIEWS) });
    }
  } catch (e) {
    pageErrors.push('driver: ' + String(e && e.message).split('\n')[0]);
    if (pageErrors.length > 20) break;
  }
  if (counts.actions % 50 === 0) await call('setState', { hide: '', lock: '' });  // keep controls reachable
  const now = Date.now() - t0;
  if (now >= nextSample) { samples.push({ t: Math.round(now / 1000), heapMB: await heapMB() }); nextSample += 10000; }
}

// Still alive: answers, and one more state change goes through.
// (Unlock first: a lesson's lock may hold the projection; then the identity lab's three words.)
const aliveWhy = await page.evaluate(() => {
  const lab = window.attentionLab;
  const u = lab.setState({ hide: '', lock: '' });
  if (!u.ok) return 'unlocking refused: ' + u.error;
  const r = lab.setState({ sentence: 'я люблю суши', projection: 'identity', view: 'weights' });
  if (!r.ok) return 'setState refused: ' + r.error;
  const n = lab.getTrace().tokens.length;
  return n === 3 ? '' : `the trace has ${n} tokens, not 3`;
}).catch((e) => 'no answer: ' + String(e && e.message).split('\n')[0]);
const alive = aliveWhy === '';
if (!alive) pageErrors.push('at the end: ' + aliveWhy);
const end = Date.now() - t0;
samples.push({ t: Math.round(end / 1000), heapMB: await heapMB().catch(() => -1) });
await browser.close();
server.close();

const kHeapCheckSeconds = 120;
const heapChecked = end >= kHeapCheckSeconds * 1000;
const half = samples.filter((s) => s.t >= end / 2000);
const growth = half.length ? Math.max(...half.map((s) => s.heapMB)) - half[0].heapMB : 0;
const report = { seconds: Math.round(end / 1000), seed: opts.seed, ...counts, consoleErrors: consoleErrors.length,
                 pageErrors: pageErrors.length, alive, heapMB: samples, heapGrowthSecondHalfMB: growth };
console.log(`soak: ${report.seconds} s, ${counts.actions} actions (${counts.valid} valid setState, ${counts.invalid} invalid, ` +
            `${counts.clicks} clicks, ${counts.typed} typing, ${counts.trained} training, ${counts.messages} postMessages, ` +
            `${counts.exports} exports, ${counts.tuned} tune calls${opts.model ? `, model loaded: ${counts.modelReady}` : ''}), ` +
            `${counts.refusals} refusals handled (${counts.typeErrors} TypeErrors)`);
console.log(`soak: console errors ${consoleErrors.length}, uncaught ${pageErrors.length}, alive at the end: ${alive}`);
console.log(`soak: wasm heap MB over time: ${samples.map((s) => `${s.t}s=${s.heapMB}`).join(' ')}; ` +
            `growth over the second half ${growth} MB ` +
            (heapChecked ? `(limit ${opts.maxGrowth})` : `(not checked: a run under ${kHeapCheckSeconds} s still sets its high-water marks)`));
for (const e of consoleErrors.slice(0, 5)) console.log(`  console error: ${e}`);
for (const e of pageErrors.slice(0, 5)) console.log(`  uncaught: ${e}`);
if (opts.json) fs.writeFileSync(opts.json, JSON.stringify({ ...report, consoleErrorTexts: consoleErrors.slice(0, 20), pageErrorTexts: pageErrors.slice(0, 20) }, null, 1));
const ok = consoleErrors.length === 0 && pageErrors.length === 0 && alive && (!heapChecked || growth <= opts.maxGrowth) &&
           (!opts.model || counts.modelReady);
console.log(ok ? 'soak: ok' : 'soak: FAILED');
process.exit(ok ? 0 : 1);
