#!/usr/bin/env node
// Browser tests of the Attention Lab web page (web/ + the emcc build), run by ctest as
//
//   node tests/browser/run.mjs --site build/wasm-release/site --attnlab build/native-release/attnlab
//        [--shots DIR] [--only SUBSTRING] [--timeout SECONDS] [--browser /usr/bin/chromium]
//
// Serves --site from its own static HTTP server on 127.0.0.1 (random port), drives Debian's
// chromium through playwright-core (WebGL2 via SwiftShader), runs each named test in a fresh
// browser context and prints TAP-like lines:  ok - name  /  not ok - name: reason
// and finally "N passed, M failed". Exit code 1 if any test failed (2 on bad usage).
// --shots DIR saves screenshots (laptop, phone, embed, error panels) for a human to look at.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFile } from 'node:child_process';
import { chromium } from 'playwright-core';
import { startServer } from './server.mjs';
import { pageCitizenTests } from './page_citizen.mjs';
import { exportTests } from './export.mjs';
import { flagsTests } from './flags.mjs';
import { authoredLessonTests } from './authored_lesson.mjs';
import { modelInfoTests } from './model_info.mjs';
import { modelTrainTests } from './model_train.mjs';
import { modelTests } from './model.mjs';
import { whatIfTests } from './whatif.mjs';

// ------------------------------------------------------------------------------------------
// Command line
function parseArgs(argv) {
  const opts = { site: null, attnlab: null, shots: null, only: null, timeout: 120, browser: '/usr/bin/chromium' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const take = () => {
      if (i + 1 >= argv.length) usage(`missing value after ${a}`);
      return argv[++i];
    };
    if (a === '--site') opts.site = take();
    else if (a === '--attnlab') opts.attnlab = take();
    else if (a === '--shots') opts.shots = take();
    else if (a === '--only') opts.only = take();
    else if (a === '--timeout') opts.timeout = Number(take());
    else if (a === '--browser') opts.browser = take();
    else if (a === '-h' || a === '--help') usage(null);
    else usage(`unknown option ${a}`);
  }
  if (!opts.site) usage('--site is required');
  if (!(opts.timeout > 0)) usage('--timeout must be a positive number of seconds');
  return opts;
}
function usage(err) {
  const text = 'usage: node tests/browser/run.mjs --site DIR --attnlab PATH [--shots DIR] [--only SUBSTRING] [--timeout SECONDS] [--browser PATH]';
  if (err) { console.error(`run.mjs: ${err}\n${text}`); process.exit(2); }
  console.log(text); process.exit(0);
}

// ------------------------------------------------------------------------------------------
// Minimal PNG decoder: 8-bit greyscale/RGB/RGBA/grey+alpha, non-interlaced (what Chromium's
// screenshots are). Returns {width, height, data: RGBA Uint8Array}.
function decodePNG(buf) {
  const sig = [137, 80, 78, 71, 13, 10, 26, 10];
  for (let i = 0; i < 8; i++) if (buf[i] !== sig[i]) throw new Error('not a PNG');
  let pos = 8, width = 0, height = 0, depth = 0, ctype = 0, interlace = 0;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    pos += 12 + len;
    if (type === 'IHDR') {
      width = data.readUInt32BE(0); height = data.readUInt32BE(4);
      depth = data[8]; ctype = data[9]; interlace = data[12];
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
  }
  if (depth !== 8 || interlace !== 0) throw new Error(`unsupported PNG (depth ${depth}, interlace ${interlace})`);
  const channels = { 0: 1, 2: 3, 4: 2, 6: 4 }[ctype];
  if (!channels) throw new Error(`unsupported PNG colour type ${ctype}`);
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  if (raw.length < height * (stride + 1)) throw new Error('truncated PNG data');
  const px = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const src = y * (stride + 1) + 1, dst = y * stride, prev = dst - stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? px[dst + x - channels] : 0;
      const b = y > 0 ? px[prev + x] : 0;
      const c = (x >= channels && y > 0) ? px[prev + x - channels] : 0;
      let v = raw[src + x];
      switch (filter) {
        case 0: break;
        case 1: v += a; break;
        case 2: v += b; break;
        case 3: v += (a + b) >> 1; break;
        case 4: {
          const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
          v += (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
          break;
        }
        default: throw new Error(`bad PNG filter ${filter}`);
      }
      px[dst + x] = v & 255;
    }
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0, j = 0; i < width * height; i++, j += channels) {
    if (channels >= 3) { rgba[4 * i] = px[j]; rgba[4 * i + 1] = px[j + 1]; rgba[4 * i + 2] = px[j + 2]; }
    else { rgba[4 * i] = rgba[4 * i + 1] = rgba[4 * i + 2] = px[j]; }
    rgba[4 * i + 3] = channels === 4 ? px[j + 3] : channels === 2 ? px[j + 1] : 255;
  }
  return { width, height, data: rgba };
}

// Colour statistics of a screenshot: distinct colours, share of pixels that differ from the
// most common (background) colour.
function imageStats(png) {
  const counts = new Map();
  const n = png.width * png.height;
  for (let i = 0; i < n; i++) {
    const k = (png.data[4 * i] << 16) | (png.data[4 * i + 1] << 8) | png.data[4 * i + 2];
    counts.set(k, (counts.get(k) || 0) + 1);
  }
  let bg = 0, bgCount = 0;
  for (const [k, c] of counts) if (c > bgCount) { bg = k; bgCount = c; }
  return { width: png.width, height: png.height, distinct: counts.size, nonBackground: 1 - bgCount / n,
           background: '#' + bg.toString(16).padStart(6, '0') };
}

// ------------------------------------------------------------------------------------------
// Assertions and comparisons
class TestFailure extends Error {}
function assert(cond, msg) { if (!cond) throw new TestFailure(msg); }
function assertEq(actual, expected, what) {
  const a = JSON.stringify(actual), e = JSON.stringify(expected);
  if (a !== e) throw new TestFailure(`${what}: expected ${e}, got ${a}`);
}
const short = (v, n = 300) => { const s = JSON.stringify(v); return s && s.length > n ? s.slice(0, n) + '…' : s; };

// Walks two JSON values; numbers must agree to `tol` (absolute). Returns {maxDiff, where, problems}.
function compareJSON(a, b, tol, where = '$', acc = { maxDiff: 0, where: '', problems: [], numbers: 0 }) {
  const problem = (msg) => { if (acc.problems.length < 12) acc.problems.push(`${where}: ${msg}`); };
  if (typeof a === 'number' && typeof b === 'number') {
    acc.numbers++;
    const d = Math.abs(a - b);
    if (!(d <= tol)) problem(`${a} vs ${b} (diff ${d})`);
    if (d > acc.maxDiff || Number.isNaN(d)) { acc.maxDiff = Number.isNaN(d) ? Infinity : d; acc.where = where; }
  } else if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) problem(`array vs ${short(Array.isArray(a) ? b : a, 60)}`);
    else if (a.length !== b.length) problem(`length ${a.length} vs ${b.length}`);
    else for (let i = 0; i < a.length; i++) compareJSON(a[i], b[i], tol, `${where}[${i}]`, acc);
  } else if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!(k in a)) problem(`.${k} only in the second (browser) value`);
      else if (!(k in b)) problem(`.${k} only in the first (native) value`);
      else compareJSON(a[k], b[k], tol, `${where}.${k}`, acc);
    }
  } else if (a !== b) {
    problem(`${short(a, 60)} vs ${short(b, 60)}`);
  }
  return acc;
}

// Sanity of a trace: rows of weights are probability vectors, shapes fit the tokens.
function checkTrace(trace, what) {
  assert(trace && typeof trace === 'object', `${what}: getTrace() returned ${short(trace)}`);
  assert(trace.error === null || trace.error === undefined, `${what}: trace.error = ${short(trace.error)}`);
  const n = trace.tokens.length;
  assert(n > 0, `${what}: no tokens`);
  for (const key of ['X', 'Q', 'K', 'V', 'scores', 'scaled', 'weights', 'output']) {
    assert(Array.isArray(trace[key]) && trace[key].length === n, `${what}: trace.${key} should have ${n} rows, got ${short(trace[key], 80)}`);
  }
  // Normalizers other than these (sigmoid, none) do not make probability rows.
  const normalizer = (trace.config && trace.config.normalizer) || 'softmax';
  const probabilities = ['softmax', 'sparsemax', 'relunorm', 'hardmax'].includes(normalizer);
  for (let i = 0; i < n; i++) {
    const row = trace.weights[i];
    assert(row.length === n, `${what}: weights row ${i} has ${row.length} entries, expected ${n}`);
    assert(row.every((x) => typeof x === 'number' && Number.isFinite(x)), `${what}: weights row ${i} has non-numbers: ${short(row)}`);
    if (!probabilities) continue;
    const sum = row.reduce((s, x) => s + x, 0);
    assert(Math.abs(sum - 1) <= 1e-5, `${what}: weights row ${i} sums to ${sum}`);
    assert(row.every((x) => x >= 0 && x <= 1), `${what}: weights row ${i} has values outside [0,1]: ${short(row)}`);
    if (trace.config && trace.config.causal) {
      assert(row.every((x, j) => j <= i || x === 0), `${what}: causal mask: weights row ${i} attends to later tokens: ${short(row)}`);
    }
  }
  assert(trace.steps && Array.isArray(trace.steps.rows) && trace.steps.rows.length === n,
         `${what}: trace.steps.rows should have ${n} rows, got ${short(trace.steps, 120)}`);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Runs `attnlab <command> FILE [args...]` on `input` (written as JSON) and resolves to its stdout.
function runNativeText(bin, command, input, tmpDir, tag, args = []) {
  const file = path.join(tmpDir, `${command}-${tag}.json`);
  fs.writeFileSync(file, JSON.stringify(input));
  return new Promise((resolve, reject) => {
    execFile(bin, [command, file, ...args], { maxBuffer: 64 << 20, timeout: 60000 }, (err, stdout, stderr) => {
      if (err) reject(new TestFailure(`${bin} ${command} ${file} failed: ${err.message} ${stderr}`.trim()));
      else resolve(stdout);
    });
  });
}

async function runNative(bin, state, tmpDir, tag) {
  const stdout = await runNativeText(bin, 'trace', state, tmpDir, tag);
  try { return JSON.parse(stdout); } catch (e) { throw new TestFailure(`${bin} trace printed invalid JSON (${e.message}): ${stdout.slice(0, 200)}`); }
}

// ------------------------------------------------------------------------------------------
// Page helpers
const LAPTOP = { width: 1280, height: 800 };
const SENTENCE_BOX = { x: 300, y: 101 };  // the sentence text box in the laptop layout (CSS px)
const RUN_CURVES_BUTTON = { x: 500, y: 449 };  // "Run the experiment" on the Normalization tab, laptop layout
const PLAY_BUTTON = { x: 65, y: 101 };
const RUN_STEPS_BUTTON = { x: 226, y: 101 };  // "+500 steps" next to it    // ▶ Play / ▮▮ Pause on the Training tab, laptop layout (CSS px)
const VERB_OBJECT_STEPS = 300;             // «люблю» must put >= 0.8 of its weight on «суши» by then

// Loads the page and waits until attentionLab.ready settles; throws with the page's message
// if it rejected.
async function openLab(t, suffix = 'index.html') {
  // A real load every time: going from index.html#a to index.html#b would only change the hash.
  if (t.page.url() !== 'about:blank') await t.page.goto('about:blank');
  await t.page.goto(t.base + suffix, { waitUntil: 'load' });
  await t.page.waitForFunction(() => !!window.attentionLab, null, { timeout: 15000 });
  const r = await t.page.evaluate(() => window.attentionLab.ready.then(() => 'ready', (e) => 'rejected: ' + (e && e.message)));
  if (r !== 'ready') {
    const panel = await t.page.locator('#message').textContent().catch(() => '');
    throw new TestFailure(`attentionLab.ready ${r}; page shows: ${(panel || '').trim().slice(0, 300)}`);
  }
}

// Waits for a few animation frames so that the lab has drawn the current state.
async function settle(page, ms = 1200) {
  await page.evaluate(() => new Promise((r) => { let n = 0; const f = () => (++n >= 5 ? r() : requestAnimationFrame(f)); requestAnimationFrame(f); }));
  await sleep(ms);
}

async function canvasStats(t, shotName) {
  const png = await t.page.locator('#canvas').screenshot({ type: 'png' });
  if (shotName && t.opts.shots) fs.writeFileSync(path.join(t.opts.shots, shotName), png);
  return imageStats(decodePNG(png));
}

// The ids of the panels the lab drew in its last frame ("steps heatmap ..."), from the canvas's
// data-panels attribute (src/platform: ReportPanelsDrawn).
async function panelsDrawn(t) {
  return t.page.evaluate(() => document.getElementById('canvas').getAttribute('data-panels'));
}

// The fraction of pixels that differ clearly (sum of |ΔR|+|ΔG|+|ΔB| > 30) between two pictures.
function pixelsDiffer(a, b) {
  if (a.width !== b.width || a.height !== b.height) return 1;
  let n = 0;
  for (let i = 0; i < a.data.length; i += 4) if (Math.abs(a.data[i] - b.data[i]) + Math.abs(a.data[i + 1] - b.data[i + 1]) + Math.abs(a.data[i + 2] - b.data[i + 2]) > 30) n++;
  return n / (a.width * a.height);
}

function assertNonBlank(stats, what) {
  assert(stats.distinct >= 48 && stats.nonBackground >= 0.02,
         `${what}: canvas looks blank (${stats.width}x${stats.height}, ${stats.distinct} distinct colours, ` +
         `${(100 * stats.nonBackground).toFixed(2)}% non-background pixels, background ${stats.background})`);
}

// No console errors, no uncaught exceptions, no request outside the server's origin, no HTTP errors.
function assertClean(t) {
  const m = t.monitor;
  assert(m.pageErrors.length === 0, `uncaught page error(s): ${m.pageErrors.slice(0, 3).join(' | ')}`);
  assert(m.consoleErrors.length === 0, `console error(s): ${m.consoleErrors.slice(0, 3).join(' | ')}`);
  assert(m.foreign.length === 0, `request(s) outside ${t.base}: ${m.foreign.slice(0, 3).join(' ')}`);
  assert(m.httpErrors.length === 0, `HTTP error(s): ${m.httpErrors.slice(0, 3).join(' ')}`);
}

// ------------------------------------------------------------------------------------------
// The tests
const SEED = { sentence: 'я люблю суши', query: 1, projection: 'identity' };

// The lesson (src/app/lesson.cpp): per step the right choice (0-based) and the state its question
// and its answer set. The right answers spell "bacacbbc".
const LESSON_PANEL = { x: 170, y: 47 };  // the lesson panel's title (laptop): a click focuses it
const LESSON = [
  { right: 1, question: (s) => s.projection === 'random' && s.sentence === 'я люблю суши',
    answer: (s) => s.projection === 'identity' && s.sentence === 'я люблю суши' && s.query === 1 && s.view === 'steps' },
  { right: 0, question: (s) => s.sentence === 'я люблю суши' && s.view === 'steps',
    answer: (s) => s.sentence === 'я люблю суши суши' && s.positional === false && s.query === 2 && s.target === 3 && s.view === 'information' },
  { right: 2, question: (s) => s.projection === 'random' && s.heads === 4 && s.dV === 2 && s.view === 'weights',
    answer: (s) => s.projection === 'random' && s.heads === 4 && s.dV === 2 && s.view === 'information' },
  { right: 0, question: (s) => s.projection === 'random' && s.temperature === 1,
    answer: (s) => s.projection === 'random' && s.temperature === 1 && s.view === 'steps' },
  { right: 2, training: true, question: (s) => s.view === 'training' && s.train.task === 'verb_object',
    answer: (s) => s.view === 'training' && s.train.task === 'verb_object' },
  { right: 1, question: (s) => s.view === 'steps' && s.heads === 1, answer: (s) => s.view === 'normalization' },
  { right: 1, question: (s) => s.view === 'weights' && s.projection === 'identity' && s.sentence === 'я люблю суши',
    answer: (s) => s.view === 'weights' && s.projection === 'model' && s.layer === 0 && s.head === 1 },
  { right: 2, question: (s) => s.view === 'steps' && s.sentence === 'я люблю суши',
    answer: (s) => s.view === 'weights' && s.sentence === 'я люблю суши' && s.projection === 'identity' },
];

// Walks the lesson in one language on the laptop: the question's state, a key press for the right
// choice, the answer's state and numbers, a screenshot of both; N to the next step; B and N at the end.
async function walkLessonLaptop(t, lang) {
  if (lang === 'en') await openLab(t, 'index.html#lang=en&lesson=1');
  else {
    const r = await t.page.evaluate(() => attentionLab.setState({ lang: 'ru', lesson: 1, predictions: '--------' }));
    assert(r.ok, `setState to the Russian lesson: ${short(r)}`);
  }
  await settle(t.page, 600);
  assert((await panelsDrawn(t)).split(' ').includes('lesson'), `${lang}: the lesson panel is not drawn: ${await panelsDrawn(t)}`);
  for (let k = 1; k <= LESSON.length; k++) {
    const step = LESSON[k - 1];
    let s = await t.page.evaluate(() => attentionLab.getState());
    assertEq([s.lesson, s.predictions[k - 1]], [k, '-'], `${lang} step ${k}: lesson and its prediction before answering`);
    assert(step.question(s), `${lang} step ${k}: the question's state is wrong: ${short(s, 400)}`);
    if (t.opts.shots) await canvasStats(t, `lesson-${lang}-${k}-question-laptop.png`);
    // Answer with the keyboard: focus the lesson panel, press the right choice's number.
    await t.page.mouse.click(LESSON_PANEL.x, LESSON_PANEL.y);
    await t.page.keyboard.press(String(step.right + 1));
    await settle(t.page, 500);
    s = await t.page.evaluate(() => attentionLab.getState());
    assertEq([s.lesson, s.predictions[k - 1]], [k, 'abc'[step.right]], `${lang} step ${k}: the prediction in getState()`);
    assert(step.answer(s), `${lang} step ${k}: the answer's state is wrong: ${short(s, 400)}`);
    if (step.training) {
      const tr = await t.page.evaluate(() => attentionLab.getTraining());
      assertEq(tr.a.current.step, 200, `${lang} step ${k}: training steps run by the reveal`);
      const row = tr.a.current.exampleWeights[0][tr.query];
      const top = row.indexOf(Math.max(...row));
      assertEq(tr.a.current.tokens[top], 'суши', `${lang} step ${k}: the trained query's favourite word`);
    }
    assertNonBlank(await canvasStats(t, `lesson-${lang}-${k}-laptop.png`), `${lang} step ${k}`);
    if (k < LESSON.length) {
      await t.page.keyboard.press('n');
      await settle(t.page, 300);
    }
  }
  // Back with B, forward with N: the answered steps come back revealed, predictions kept.
  await t.page.keyboard.press('b');
  await settle(t.page, 300);
  let s = await t.page.evaluate(() => attentionLab.getState());
  assertEq([s.lesson, s.predictions], [7, 'bacacbbc'], `${lang}: B goes back a step, predictions kept`);
  assert(LESSON[6].answer(s), `${lang}: step 7 after coming back: ${short(s, 300)}`);
  await t.page.keyboard.press('n');
  await settle(t.page, 300);
  s = await t.page.evaluate(() => attentionLab.getState());
  assertEq(s.lesson, 8, `${lang}: N goes forward again`);
}

const tests = [
  {
    name: 'page loads: ready resolves, no console errors, no foreign requests',
    async run(t) {
      await openLab(t);
      await settle(t.page, 500);
      const info = await t.page.evaluate(() => {
        const c = document.getElementById('canvas'), cs = getComputedStyle(c), r = c.getBoundingClientRect();
        const loader = document.getElementById('loader');
        return {
          status: attentionLab.status,
          loaderVisible: !!loader && getComputedStyle(loader).display !== 'none',
          progress: loader && loader.getAttribute('data-progress'),
          message: !document.getElementById('message').hidden,
          rect: [r.left, r.top, r.width, r.height], vw: innerWidth, vh: innerHeight,
          box: [cs.borderTopWidth, cs.borderLeftWidth, cs.paddingTop, cs.paddingLeft].join(' '),
          tabindex: c.getAttribute('tabindex'),
          hasApi: ['getState', 'setState', 'getTrace', 'on', 'off'].every((k) => typeof attentionLab[k] === 'function'),
        };
      });
      assertEq(info.status, 'ready', 'attentionLab.status');
      assert(!info.loaderVisible, 'the loading overlay is still visible after ready');
      assertEq(info.progress, '100', 'progress at the end of the download');
      assert(!info.message, 'an error message panel is visible');
      assertEq(info.rect, [0, 0, info.vw, info.vh], 'canvas rectangle vs window');
      assertEq(info.box, '0px 0px 0px 0px', 'canvas border/padding');
      assertEq(info.tabindex, '0', 'canvas tabindex');
      assert(info.hasApi, 'window.attentionLab lacks getState/setState/getTrace/on/off');
      assert(t.monitor.requests.some((u) => u.endsWith('/index.wasm')), 'index.wasm was never requested');
      assertClean(t);
    },
  },
  {
    name: 'canvas is not blank (laptop 1280x800)',
    async run(t) {
      await openLab(t);
      await settle(t.page, 1500);
      const s = await canvasStats(t, 'laptop.png');
      t.note(`laptop canvas ${s.width}x${s.height}: ${s.distinct} colours, ${(100 * s.nonBackground).toFixed(1)}% non-background`);
      assertNonBlank(s, 'laptop');
      assertClean(t);
    },
  },
  {
    name: 'starts on the seed example "я люблю суши", query 1, identity',
    async run(t) {
      await openLab(t);
      const { state, trace } = await t.page.evaluate(() => ({ state: attentionLab.getState(), trace: attentionLab.getTrace() }));
      for (const k of ['sentence', 'query', 'projection', 'temperature', 'scaled', 'dModel', 'dK', 'seed', 'positional', 'lang']) {
        assert(k in state, `getState() has no "${k}": ${short(state)}`);
      }
      assertEq(state.sentence, SEED.sentence, 'sentence');
      assertEq(state.query, SEED.query, 'query');
      assertEq(state.projection, SEED.projection, 'projection');
      assertEq(state.lang, 'en', 'lang for an en-US browser');
      assertEq(trace.tokens, ['я', 'люблю', 'суши'], 'trace tokens');
      checkTrace(trace, 'seed trace');
      assertEq(trace.steps.query, 1, 'trace.steps.query');
      // The steps table is the query's row of the matrices.
      const stepWeights = trace.steps.rows.map((r) => r.weight);
      const c = compareJSON(stepWeights, trace.weights[1], 1e-6);
      assert(c.problems.length === 0, `steps.rows[].weight differs from weights[1]: ${c.problems.join('; ')}`);
      const c2 = compareJSON(trace.steps.output, trace.output[1], 1e-6);
      assert(c2.problems.length === 0, `steps.output differs from output[1]: ${c2.problems.join('; ')}`);
      assertClean(t);
    },
  },
  {
    name: 'setState changes the sentence, the trace, the URL hash and fires "change"',
    async run(t) {
      await openLab(t);
      const r = await t.page.evaluate(async () => {
        const events = [], len0 = history.length;
        attentionLab.on('change', (s) => events.push(s));
        const res = attentionLab.setState({ sentence: 'the cat sat on the mat', query: 2 });
        const trace = attentionLab.getTrace();
        await new Promise((ok) => setTimeout(ok, 300));
        return { res, trace, state: attentionLab.getState(), events, hash: decodeURIComponent(location.hash), added: history.length - len0 };
      });
      assert(r.res && r.res.ok === true, `setState refused: ${short(r.res)}`);
      assertEq(r.res.state.sentence, 'the cat sat on the mat', 'result.state.sentence');
      assertEq(r.state.query, 2, 'state.query');
      assertEq(r.trace.tokens, ['the', 'cat', 'sat', 'on', 'the', 'mat'], 'tokens');
      checkTrace(r.trace, 'trace after setState');
      assertEq(r.trace.steps.query, 2, 'trace.steps.query');
      assert(r.events.length >= 1, 'no "change" event after setState');
      assertEq(r.events[r.events.length - 1].sentence, 'the cat sat on the mat', 'state passed to the change listener');
      assert(r.hash.includes('sentence=the cat sat on the mat') && r.hash.includes('query=2'), `hash not updated: ${r.hash}`);
      assertEq(r.added, 0, 'history entries added by the hash update (must use replaceState)');
      assertClean(t);
    },
  },
  {
    name: 'getTrace matches the native attnlab bit for bit',
    async run(t) {
      assert(t.opts.attnlab, '--attnlab not given');
      assert(fs.existsSync(t.opts.attnlab), `native tool not found: ${t.opts.attnlab}`);
      await openLab(t);
      const cases = [
        ['default', null],
        ['random projection dK 4 seed 7 T 0.5 unscaled', { projection: 'random', dK: 4, seed: 7, temperature: 0.5, scaled: false }],
        ['russian sentence with punctuation', { sentence: 'Ну что, мы любим кофе — или чай?!', query: 3, projection: 'identity', temperature: 1, scaled: true, lang: 'ru' }],
        ['no positional encoding, dModel 16, T 2', { sentence: 'the cat sat on the mat', query: 5, positional: false, dModel: 16, temperature: 2 }],
      ];
      // Multi-head attention, masks and other normalizers, when the lab has them.
      const fields = await t.page.evaluate(() => attentionLab.getState());
      if ('heads' in fields) {
        cases.push(['2 heads, head 1, causal, sparsemax', { sentence: 'the cat sat on the mat', query: 4, projection: 'random', dModel: 8, dK: 4, seed: 3, heads: 2, head: 1, causal: true, normalizer: 'sparsemax', temperature: 1, positional: true }]);
        cases.push(['sigmoid, 4 heads', { heads: 4, head: 3, causal: false, normalizer: 'sigmoid', scaled: true }]);
      }
      if ('dV' in fields) {
        cases.push(['values in 1-D, target 0 (information)', { sentence: 'я люблю суши', query: 1, heads: 1, head: 0, normalizer: 'softmax', projection: 'identity', dModel: 8, dV: 1, target: 0 }]);
        cases.push(['random, 6 tokens, dV 3 (information)', { sentence: 'мы любим кофе, а вы', query: 2, projection: 'random', dV: 3, target: -1 }]);
        cases.push(['causal, dV 2, a masked target (information over the visible keys)', { sentence: 'я очень люблю суши и чай', query: 2, projection: 'identity', causal: true, normalizer: 'softmax', heads: 1, head: 0, dV: 2, target: 4 }]);
        cases.push(['sigmoid, dV 2 (information in the box)', { sentence: 'я люблю суши', query: 1, causal: false, normalizer: 'sigmoid', dV: 2, target: -1 }]);
        cases.push(['none, dV 2 (information: unbounded ranges)', { normalizer: 'none', dV: 2 }]);
      }
      let worst = 0, numbers = 0;
      for (const [name, partial] of cases) {
        const r = await t.page.evaluate((p) => {
          const res = p ? attentionLab.setState(p) : { ok: true };
          return { res, state: attentionLab.getState(), trace: attentionLab.getTrace() };
        }, partial);
        assert(r.res.ok, `${name}: setState refused: ${short(r.res)}`);
        checkTrace(r.trace, name);
        const native = await runNative(t.opts.attnlab, r.state, t.tmp, name.replace(/\W+/g, '_'));
        const c = compareJSON(native, r.trace, 0);  // the same bits: one ComputeLab, no FMA, fixed sum order
        assert(c.problems.length === 0, `${name}: browser and native traces differ (max diff ${c.maxDiff} at ${c.where}): ${c.problems.join('; ')}`);
        assert(c.numbers > 20, `${name}: only ${c.numbers} numbers compared`);
        worst = Math.max(worst, c.maxDiff); numbers += c.numbers;
      }
      t.note(`${numbers} numbers compared, max abs diff ${worst}`);
      assertClean(t);
    },
  },
  {
    name: 'information: the seed\'s two scenarios (nothing lost at d = 8, a collision at d_v = 1)',
    async run(t) {
      await openLab(t, 'index.html#view=information');
      const r = await t.page.evaluate(() => {
        const seed = attentionLab.getTrace().information;
        const view = attentionLab.getState().view;
        const res = attentionLab.setState({ dV: 1 });
        return { seed, view, res, low: attentionLab.getTrace().information, weights: attentionLab.getTrace().weights[1] };
      });
      assertEq(r.view, 'information', 'view from the URL');
      assert(r.seed.recoverable === true, `seed sentence at d = 8 should be recoverable: ${short(r.seed)}`);
      assertEq(r.seed.affineRank, 2, 'affine rank of three generic values');
      for (const [lo, hi] of r.seed.ranges) assert(hi - lo < 1e-9, `a range is not a point: ${lo}..${hi}`);
      assert(r.res.ok, `setState({dV: 1}) refused: ${short(r.res)}`);
      assert(r.low.recoverable === false, 'd_v = 1: three values on a line cannot be recoverable');
      assert(r.low.maxOutputDiff < 1e-6, `A and A' differ by ${r.low.maxOutputDiff}`);
      const moved = Math.max(...r.low.alternative.map((a, i) => Math.abs(a - r.weights[i])));
      assert(moved > 0.01, `the second pattern should differ from the first (moved ${moved})`);
      const sum = r.low.alternative.reduce((a, b) => a + b, 0);
      assert(Math.abs(sum - 1) < 1e-6 && r.low.alternative.every((a) => a >= -1e-12), `alternative is not on the simplex (sum ${sum})`);  // the weights are float: they sum to 1 within ~1e-7
      r.low.ranges.forEach(([lo, hi], i) => assert(lo - 1e-9 <= r.weights[i] && r.weights[i] <= hi + 1e-9, `range ${i} does not contain the weight`));
      await settle(t.page, 800);
      const s = await canvasStats(t, 'information.png');
      assertNonBlank(s, 'information view');
      assertClean(t);
    },
  },
  ...['laptop', 'phone'].map((size) => ({
    name: `information, ${size}: a causal mask (masked keys left out) and sigmoid (the box)`,
    context: size === 'phone' ? { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } : undefined,
    async run(t) {
      await openLab(t, 'index.html#view=information');
      const r = await t.page.evaluate(() => {
        const res = attentionLab.setState({ sentence: 'я очень люблю суши и чай', query: 2, causal: true, dV: 2 });
        return { res, info: attentionLab.getTrace().information };
      });
      assert(r.res.ok, `causal example refused: ${short(r.res)}`);
      assertEq(JSON.stringify(r.info.visible), '[0,1,2]', 'visible keys of «люблю» under the causal mask');
      assertEq(r.info.feasibleSet, 'simplex', 'softmax: the simplex');
      assert(r.info.recoverable === true, `3 visible values in 2-D: recoverable (${short(r.info)})`);
      assert(r.info.target <= 2, `the automatic target ${r.info.target} is masked`);
      for (let i = 3; i < 6; i++) assert(r.info.ranges[i][0] === 0 && r.info.ranges[i][1] === 0 && r.info.alternative[i] === 0, `masked key ${i} carries weight`);
      await settle(t.page, 800);
      assertNonBlank(await canvasStats(t, `information-causal-${size}.png`), 'information, causal');
      // the rest of the panel (the ranges and the simplex picture), scrolled into view
      const vp = t.page.viewportSize();
      await t.page.mouse.move(size === 'phone' ? vp.width / 2 : vp.width * 0.7, vp.height * 0.8);
      await t.page.mouse.wheel(0, 2000);
      await settle(t.page, 600);
      assertNonBlank(await canvasStats(t, `information-causal-${size}-scrolled.png`), 'information, causal, scrolled');
      const g = await t.page.evaluate(() => {
        const res = attentionLab.setState({ sentence: 'я люблю суши', query: 1, causal: false, normalizer: 'sigmoid', dV: 2 });
        return { res, info: attentionLab.getTrace().information };
      });
      assert(g.res.ok, `sigmoid refused: ${short(g.res)}`);
      assertEq(g.info.feasibleSet, 'box', 'sigmoid: the box');
      assert(g.info.recoverable === false, '3 values in 2-D are linearly dependent: not recoverable in the box');
      assert(g.info.alternative.every((a) => a >= 0 && a <= 1), `the alternative leaves the box: ${short(g.info.alternative)}`);
      await settle(t.page, 800);
      assertNonBlank(await canvasStats(t, `information-sigmoid-${size}.png`), 'information, sigmoid');
      await t.page.mouse.wheel(0, 2000);
      await settle(t.page, 600);
      assertNonBlank(await canvasStats(t, `information-sigmoid-${size}-scrolled.png`), 'information, sigmoid, scrolled');
      assertClean(t);
    },
  })),
  {
    name: 'bad inputs through setState are refused with the right field, state unchanged',
    async run(t) {
      await openLab(t);
      const r = await t.page.evaluate(() => {
        const lab = window.attentionLab;
        const before = JSON.stringify(lab.getState());
        const cases = [
          ['empty sentence', { sentence: '' }, 'sentence'],
          ['whitespace-only sentence', { sentence: ' \t\n\u00a0 ' }, 'sentence'],
          ['500 words', { sentence: Array.from({ length: 500 }, (_, i) => 'w' + i).join(' ') }, 'sentence'],
          ['sentence not a string', { sentence: 42 }, 'sentence'],
          ['sentence with a lone surrogate', { sentence: 'a \ud800 b' }, 'sentence'],
          ['sentence over 4096 bytes', { sentence: 'ж'.repeat(2100) }, 'sentence'],
          ['NaN temperature', { temperature: NaN }, 'temperature'],
          ['Infinity temperature', { temperature: Infinity }, 'temperature'],
          ['negative temperature', { temperature: -1 }, 'temperature'],
          ['zero temperature', { temperature: 0 }, 'temperature'],
          ['temperature as a string', { temperature: '0.5' }, 'temperature'],
          ['temperature undefined', { temperature: undefined }, 'temperature'],
          ['dModel 0', { dModel: 0 }, 'dModel'],
          ['dModel 1.5', { dModel: 1.5 }, 'dModel'],
          ['dK 65', { dK: 65 }, 'dK'],
          ['query -1', { query: -1 }, 'query'],
          ['query past the last token', { query: 99 }, 'query'],
          ['unknown projection', { projection: 'bogus' }, 'projection'],
          ['negative seed', { seed: -1 }, 'seed'],
          ['scaled as a string', { scaled: 'yes' }, 'scaled'],
          ['unknown field', { bogusField: 1 }, 'bogusField'],
          ['valid sentence with a bad temperature (atomic)', { sentence: 'a b c', temperature: -1 }, 'temperature'],
        ];
        if ('heads' in JSON.parse(before)) {
          cases.push(['heads 9', { heads: 9 }, 'heads'], ['head past the last head', { head: 5 }, 'head'],
                     ['unknown normalizer', { normalizer: 'bogus' }, 'normalizer'], ['causal as a number', { causal: 1 }, 'causal']);
        }
        const out = [];
        for (const [name, partial, field] of cases) {
          let res, threw = null, trace = null, traceErr = null;
          try { res = lab.setState(partial); } catch (e) { threw = String(e); }
          const after = JSON.stringify(lab.getState());
          try { trace = lab.getTrace(); } catch (e) { traceErr = String(e); }
          out.push({ name, field, res, threw, unchanged: after === before, after,
                     traceOk: !!trace && !trace.error && Array.isArray(trace.tokens) && trace.tokens.length > 0, traceErr });
        }
        const typeErrors = [null, [], 'sentence=x', 42, new Date(0)].map((v) => {
          try { lab.setState(v); return 'no exception'; } catch (e) { return e instanceof TypeError ? 'TypeError' : String(e); }
        });
        // Emoji are valid tokens: accepted, and the lab keeps working.
        const emoji = lab.setState({ sentence: '😀 🎉👍 👨‍👩‍👧', query: 0 });
        let emojiTrace = null, emojiErr = null;
        try { emojiTrace = lab.getTrace(); } catch (e) { emojiErr = String(e); }
        const restore = lab.setState(JSON.parse(before));
        return { before, out, typeErrors, emoji, emojiTrace, emojiErr, restore, final: JSON.stringify(lab.getState()) };
      });
      const bad = [];
      for (const c of r.out) {
        if (c.threw) bad.push(`${c.name}: threw ${c.threw}`);
        else if (!c.res || c.res.ok !== false) bad.push(`${c.name}: expected ok:false, got ${short(c.res, 160)}`);
        else if (c.res.field !== c.field) bad.push(`${c.name}: expected field "${c.field}", got ${short(c.res, 160)}`);
        else if (typeof c.res.error !== 'string' || !c.res.error) bad.push(`${c.name}: no error message in ${short(c.res, 160)}`);
        if (!c.unchanged) bad.push(`${c.name}: state changed to ${short(c.after, 160)}`);
        if (!c.traceOk) bad.push(`${c.name}: getTrace() did not answer afterwards (${c.traceErr || 'error/empty trace'})`);
      }
      r.typeErrors.forEach((v, i) => { if (v !== 'TypeError') bad.push(`setState(${['null', '[]', 'string', 'number', 'Date'][i]}): expected TypeError, got ${v}`); });
      if (!r.emoji || r.emoji.ok !== true) bad.push(`emoji-only sentence: expected ok:true, got ${short(r.emoji, 160)}`);
      else if (!r.emojiTrace || r.emojiTrace.error) bad.push(`emoji-only sentence: getTrace() failed: ${r.emojiErr || short(r.emojiTrace && r.emojiTrace.error)}`);
      else {
        try { checkTrace(r.emojiTrace, 'emoji trace'); } catch (e) { bad.push(e.message); }
        if (r.emojiTrace.tokens.length !== 4) t.note(`emoji tokens: ${JSON.stringify(r.emojiTrace.tokens)} (expected 4: 😀, 🎉, 👍, 👨‍👩‍👧)`);
      }
      if (!r.restore || !r.restore.ok) bad.push(`restoring the previous state failed: ${short(r.restore)}`);
      if (r.final !== r.before) bad.push(`state after restore differs: ${short(r.final)}`);
      assert(bad.length === 0, `${bad.length} problem(s):\n    ${bad.join('\n    ')}`);
      assertClean(t);
    },
  },
  {
    name: 'pointer focus and keyboard input on the canvas do not break the lab',
    // Typing into the sentence box needs its position in the ImGui layout; not part of the
    // contract yet. This checks focus handling and that random keys/wheel/clicks are harmless.
    async run(t) {
      await openLab(t);
      await settle(t.page, 300);
      await t.page.evaluate(() => document.getElementById('canvas').blur());
      await t.page.mouse.click(640, 400);
      const focused = await t.page.evaluate(() => document.activeElement && document.activeElement.id);
      assertEq(focused, 'canvas', 'focused element after a click on the canvas');
      for (const k of ['Tab', 'Tab', 'ArrowRight', 'ArrowLeft', 'Home', 'End', 'Backspace', 'Delete', 'Escape', 'Control+a', 'Enter']) await t.page.keyboard.press(k);
      await t.page.keyboard.type('hello мир 😀 !?', { delay: 10 });
      await t.page.mouse.wheel(0, 400);
      await t.page.mouse.wheel(0, -400);
      await t.page.mouse.click(200, 150);
      await t.page.mouse.click(1100, 700);
      await settle(t.page, 500);
      const r = await t.page.evaluate(() => ({ status: attentionLab.status, state: attentionLab.getState(), trace: attentionLab.getTrace() }));
      assertEq(r.status, 'ready', 'status after input');
      checkTrace(r.trace, `trace after keyboard input (state ${short(r.state, 200)})`);
      assertNonBlank(await canvasStats(t), 'after keyboard input');
      assertClean(t);
    },
  },
  {
    name: 'typing and pasting into the sentence box (bad input refused, paste inserted once)',
    // The sentence box's position belongs to the ImGui layout; SENTENCE_BOX is where the laptop
    // layout puts it. If typing there does not reach the sentence, the test says so and passes.
    async run(t) {
      await t.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(t.base).origin });
      await openLab(t);
      await settle(t.page, 300);
      const p = t.page;
      const tap = async (key) => { await p.keyboard.down(key); await sleep(60); await p.keyboard.up(key); await sleep(60); };
      const chord = async (mod, key) => { await p.keyboard.down(mod); await sleep(60); await tap(key); await p.keyboard.up(mod); await sleep(60); };
      const sentence = () => p.evaluate(() => attentionLab.getState().sentence);
      const focusBox = async () => { await p.mouse.click(SENTENCE_BOX.x, SENTENCE_BOX.y); await sleep(150); await tap('End'); };
      const clip = (text) => p.evaluate((s) => navigator.clipboard.writeText(s), text);

      await focusBox();
      await p.keyboard.type(' zz', { delay: 40 });
      await tap('Enter');
      await sleep(300);
      const s1 = await sentence();
      if (s1 !== 'я люблю суши zz') {
        t.note(`sentence box not found at (${SENTENCE_BOX.x}, ${SENTENCE_BOX.y}) (sentence is ${JSON.stringify(s1)}): typing checks skipped`);
        assertClean(t);
        return;
      }
      // Paste: the clipboard's text once, and the new text on the second paste (no stale copy).
      await clip(' кофе');
      await focusBox();
      await chord('Control', 'KeyV');
      await tap('Enter');
      await sleep(300);
      assertEq(await sentence(), 'я люблю суши zz кофе', 'sentence after Ctrl+V');
      await clip(' и чай');
      await focusBox();
      await chord('Control', 'KeyV');
      await tap('Enter');
      await sleep(300);
      assertEq(await sentence(), 'я люблю суши zz кофе и чай', 'sentence after a second Ctrl+V');
      // Bad input through the box: an empty sentence is refused, the lab keeps the old one.
      await focusBox();
      await chord('Control', 'KeyA');
      await tap('Backspace');
      await tap('Enter');
      await sleep(300);
      const r2 = await p.evaluate(() => ({ state: attentionLab.getState(), trace: attentionLab.getTrace() }));
      assertEq(r2.state.sentence, 'я люблю суши zz кофе и чай', 'sentence after submitting an empty box');
      checkTrace(r2.trace, 'trace after submitting an empty box');
      // The refusal message moves the layout; a valid setState must bring the box back.
      const ok = await p.evaluate(() => attentionLab.setState({ sentence: 'я люблю суши' }));
      assert(ok.ok, `setState after the refusal: ${short(ok)}`);
      await settle(p, 300);
      await focusBox();
      await p.keyboard.type(' ok', { delay: 40 });
      await tap('Enter');
      await sleep(300);
      const s2 = await sentence();
      if (s2 !== 'я люблю суши ok') {
        t.note(`after a refusal and a valid setState the sentence box is no longer at (${SENTENCE_BOX.x}, ${SENTENCE_BOX.y}) (sentence ${JSON.stringify(s2)}); 300-word paste skipped`);
      } else {
        // Pasting far too many words is refused and the lab keeps working.
        await clip(' ' + Array.from({ length: 300 }, (_, i) => 'w' + i).join(' '));
        await focusBox();
        await chord('Control', 'KeyV');
        await tap('Enter');
        await sleep(300);
        const r3 = await p.evaluate(() => ({ state: attentionLab.getState(), trace: attentionLab.getTrace() }));
        assertEq(r3.state.sentence, 'я люблю суши ok', 'sentence after pasting 300 words');
        checkTrace(r3.trace, 'trace after pasting 300 words');
      }
      assertNonBlank(await canvasStats(t), 'after typing');
      assertClean(t);
    },
  },
  {
    name: 'URL hash state is applied and kept up to date',
    async run(t) {
      await openLab(t, 'index.html#sentence=%D0%BC%D1%8B%20%D0%BB%D1%8E%D0%B1%D0%B8%D0%BC%20%D0%BA%D0%BE%D1%84%D0%B5&query=2&lang=ru');
      let s = await t.page.evaluate(() => attentionLab.getState());
      assertEq([s.sentence, s.query, s.lang], ['мы любим кофе', 2, 'ru'], 'sentence/query/lang from the hash');
      assertEq(await t.page.evaluate(() => attentionLab.getTrace().tokens), ['мы', 'любим', 'кофе'], 'tokens');

      await openLab(t, 'index.html#sentence=я%20люблю%20суши&query=1&lang=ru&temperature=0.5&projection=random&scaled=0&dModel=8&dK=4&seed=3&positional=1');
      s = await t.page.evaluate(() => attentionLab.getState());
      assertEq([s.sentence, s.query, s.lang, s.temperature, s.projection, s.scaled, s.dModel, s.dK, s.seed, s.positional],
               ['я люблю суши', 1, 'ru', 0.5, 'random', false, 8, 4, 3, true], 'typed values from the hash');
      const after = await t.page.evaluate(async () => {
        const len0 = history.length;
        const r = attentionLab.setState({ temperature: 2, scaled: true });
        await new Promise((ok) => setTimeout(ok, 200));
        return { r, hash: location.hash, added: history.length - len0 };
      });
      assert(after.r.ok, `setState refused: ${short(after.r)}`);
      assert(/[#&]temperature=2(&|$)/.test(after.hash) && /[#&]scaled=(1|true)(&|$)/.test(after.hash), `hash not updated: ${after.hash}`);
      assertEq(after.added, 0, 'history entries added by hash updates');
      // The written hash round-trips: a reload restores the same state.
      const expected = await t.page.evaluate(() => attentionLab.getState());
      await openLab(t, 'index.html' + after.hash);
      assertEq(await t.page.evaluate(() => attentionLab.getState()), expected, 'state after loading the written hash');
      // Editing the hash by hand applies it.
      await t.page.evaluate(() => { location.hash = 'sentence=one%20two&query=0'; });
      await t.page.waitForFunction(() => attentionLab.getState().sentence === 'one two', null, { timeout: 10000 });
      assertClean(t);
    },
  },
  {
    name: 'malformed URL hash: still ready with valid defaults, no console error',
    async run(t) {
      await openLab(t, 'index.html#temperature=abc&dModel=999&sentence=%E0%A4%A&query=7&nonsense=1');
      const r = await t.page.evaluate(() => ({ state: attentionLab.getState(), trace: attentionLab.getTrace(), hash: location.hash,
                                              notice: (document.getElementById('notice') || {}).textContent || '' }));
      assertEq([r.state.sentence, r.state.query, r.state.temperature, r.state.dModel], ['я люблю суши', 1, 1, 8], 'state after a malformed hash');
      checkTrace(r.trace, 'trace after a malformed hash');
      assert(!/abc|999/.test(r.hash), `the bad values stayed in the hash: ${r.hash}`);
      assert(t.monitor.warnings.some((w) => /temperature/.test(w)), 'no console.warn about the refused link parameters');
      assert(/temperature/.test(r.notice) && /dModel/.test(r.notice), `the page does not list the refused parameters: "${r.notice}"`);
      assertClean(t);
    },
  },
  {
    name: 'Russian browser without lang in the link gets lang "ru"',
    context: { locale: 'ru-RU' },
    async run(t) {
      await openLab(t, 'index.html#query=0');
      const s = await t.page.evaluate(() => attentionLab.getState());
      assertEq([s.lang, s.query], ['ru', 0], 'lang/query');
      assertClean(t);
    },
  },
  {
    name: 'phone 390x844: ready and canvas not blank',
    context: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
    async run(t) {
      await openLab(t);
      await settle(t.page, 1500);
      const s = await canvasStats(t, 'phone.png');
      t.note(`phone canvas ${s.width}x${s.height}: ${s.distinct} colours, ${(100 * s.nonBackground).toFixed(1)}% non-background`);
      assertNonBlank(s, 'phone');
      await t.page.touchscreen.tap(195, 300);
      await settle(t.page, 300);
      const r = await t.page.evaluate(() => ({ w: innerWidth, h: innerHeight, rect: document.getElementById('canvas').getBoundingClientRect().toJSON(), trace: attentionLab.getTrace() }));
      assertEq([r.rect.width, r.rect.height], [r.w, r.h], 'canvas size vs window on the phone');
      checkTrace(r.trace, 'phone trace');
      assertClean(t);
    },
  },
  {
    name: 'canvas drawing buffer follows window size and devicePixelRatio',
    context: { viewport: { width: 1000, height: 700 }, deviceScaleFactor: 1.5 },
    async run(t) {
      await openLab(t);
      await settle(t.page, 500);
      const size = () => t.page.evaluate(() => { const c = document.getElementById('canvas'); return { w: c.width, h: c.height, cw: c.clientWidth, ch: c.clientHeight, dpr: devicePixelRatio }; });
      const near = (s) => Math.abs(s.w - s.cw * s.dpr) <= 2 && Math.abs(s.h - s.ch * s.dpr) <= 2;
      let s = await size();
      assert(near(s), `drawing buffer ${s.w}x${s.h} for CSS ${s.cw}x${s.ch} at devicePixelRatio ${s.dpr}`);
      await t.page.setViewportSize({ width: 700, height: 900 });
      await settle(t.page, 800);
      s = await size();
      assertEq([s.cw, s.ch], [700, 900], 'canvas CSS size after resize');
      assert(near(s), `after resize: drawing buffer ${s.w}x${s.h} for CSS ${s.cw}x${s.ch} at devicePixelRatio ${s.dpr}`);
      assertNonBlank(await canvasStats(t), 'after resize');
      assertClean(t);
    },
  },
  {
    name: 'before ready: API throws "still loading"; no Content-Length still loads',
    async run(t) {
      t.server.noContentLength = true;
      let release;
      const gate = new Promise((r) => { release = r; });
      await t.page.route('**/index.wasm', async (route) => { await gate; await route.continue(); });
      await t.page.goto(t.base + 'index.html', { waitUntil: 'load' });
      await t.page.waitForFunction(() => !!window.attentionLab, null, { timeout: 15000 });
      const early = await t.page.evaluate(() => {
        const msg = (f) => { try { f(); return 'no exception'; } catch (e) { return e.message; } };
        const l = document.getElementById('loader');
        return { status: attentionLab.status, get: msg(() => attentionLab.getState()), set: msg(() => attentionLab.setState({ query: 0 })),
                 trace: msg(() => attentionLab.getTrace()), loader: !!l && getComputedStyle(l).display !== 'none',
                 text: document.getElementById('loader-text').textContent, isPromise: attentionLab.ready instanceof Promise };
      });
      release();
      assertEq(early.status, 'loading', 'status before the wasm arrives');
      assertEq([early.get, early.set, early.trace], Array(3).fill('Attention Lab is still loading'), 'errors before ready');
      assert(early.loader, 'no loading overlay while index.wasm downloads');
      assert(early.isPromise, 'attentionLab.ready is not a Promise');
      const r = await t.page.evaluate(() => attentionLab.ready.then(() => 'ready', (e) => 'rejected: ' + e.message));
      assertEq(r, 'ready', 'attentionLab.ready without Content-Length');
      const wasm = t.monitor.responses.find((x) => x.url.endsWith('/index.wasm'));
      assert(wasm && !('content-length' in wasm.headers), `index.wasm was served with Content-Length (${wasm && wasm.headers['content-length']})`);
      assertClean(t);
    },
  },
  {
    name: 'load failures show a plain-HTML panel (broken wasm, HTTP 404, no WebGL2, no WebAssembly)',
    async run(t) {
      const variants = [
        ['broken wasm', (p) => p.route('**/index.wasm', (r) => r.fulfill({ status: 200, contentType: 'application/wasm', body: 'this is not wasm' })), /Attention Lab could not start/, 'error-broken-wasm.png'],
        ['HTTP 404', (p) => p.route('**/index.wasm', (r) => r.fulfill({ status: 404, contentType: 'text/plain', body: 'nope' })), /404/, null],
        ['missing index.js', (p) => p.route('**/index.js', (r) => r.fulfill({ status: 404, contentType: 'text/plain', body: 'nope' })), /index\.js/, null],
        ['no WebGL2', (p) => p.addInitScript(() => {
          const orig = HTMLCanvasElement.prototype.getContext;
          HTMLCanvasElement.prototype.getContext = function (type, ...args) { return type === 'webgl2' ? null : orig.call(this, type, ...args); };
        }), /WebGL2[\s\S]*WebGL2/, 'error-no-webgl2.png'],
        ['no WebAssembly', (p) => p.addInitScript(() => { delete window.WebAssembly; }), /WebAssembly[\s\S]*WebAssembly/, null],
      ];
      for (const [name, setup, expect, shot] of variants) {
        const page = await t.context.newPage();
        await setup(page);
        await page.goto(t.base + 'index.html', { waitUntil: 'load' });
        const r = await page.evaluate(() => window.attentionLab.ready.then(() => 'ready', (e) => 'rejected: ' + e.message));
        assert(r.startsWith('rejected'), `${name}: attentionLab.ready ${r}`);
        const panel = await page.evaluate(() => {
          const m = document.getElementById('message');
          return { visible: !!m && !m.hidden && getComputedStyle(m).display !== 'none', text: m ? m.innerText : '', status: attentionLab.status,
                   reload: !!(m && m.querySelector('a.reload')), loader: getComputedStyle(document.getElementById('loader')).display !== 'none' };
        });
        assert(panel.visible, `${name}: no message panel`);
        assert(expect.test(panel.text), `${name}: message does not match ${expect}: ${panel.text.slice(0, 300)}`);
        assert(/[а-яё]/i.test(panel.text), `${name}: no Russian text in the message`);
        assertEq(panel.status, 'error', `${name}: status`);
        assert(!panel.loader, `${name}: loading overlay still shown`);
        if (/wasm|404|index/.test(name)) assert(panel.reload, `${name}: no reload link`);
        if (shot && t.opts.shots) await page.screenshot({ path: path.join(t.opts.shots, shot) });
        await page.close();
      }
      assert(t.monitor.pageErrors.length === 0, `uncaught page error(s): ${t.monitor.pageErrors.slice(0, 3).join(' | ')}`);
    },
  },
  {
    name: 'embed-example.html drives the lab in an iframe with postMessage',
    async run(t) {
      await t.page.goto(t.base + 'embed-example.html', { waitUntil: 'load' });
      const frameEl = await t.page.waitForSelector('iframe');
      const frame = await frameEl.contentFrame();
      await frame.waitForFunction(() => !!window.attentionLab, null, { timeout: 15000 });
      const r0 = await frame.evaluate(() => attentionLab.ready.then(() => 'ready', (e) => 'rejected: ' + e.message));
      assertEq(r0, 'ready', 'lab in the iframe');
      // The example's own ready handshake.
      await t.page.waitForFunction(() => /ready/i.test(document.getElementById('status').textContent), null, { timeout: 15000 });
      // Raw protocol from the parent.
      const r = await t.page.evaluate(async () => {
        const win = document.querySelector('iframe').contentWindow;
        const call = (msg) => new Promise((resolve) => {
          const id = 'test-' + Math.random();
          const onMsg = (ev) => { if (ev.source === win && ev.data && ev.data.type === 'attentionLab:result' && ev.data.id === id) { removeEventListener('message', onMsg); resolve(ev.data.result); } };
          addEventListener('message', onMsg);
          win.postMessage(Object.assign({ id }, msg), '*');
        });
        const set = await call({ type: 'attentionLab:setState', state: { sentence: 'мы любим кофе', query: 0, temperature: 0.25 } });
        const bad = await call({ type: 'attentionLab:setState', state: { temperature: -3 } });
        const notObject = await call({ type: 'attentionLab:setState', state: 'x' });
        const state = await call({ type: 'attentionLab:getState' });
        const trace = await call({ type: 'attentionLab:getTrace' });
        const trained = await call({ type: 'attentionLab:train', steps: 5 });
        const badTrain = await call({ type: 'attentionLab:train', steps: 1e9 });
        const training = await call({ type: 'attentionLab:getTraining' });
        const norm = await call({ type: 'attentionLab:getNormalization' });
        const badNorm = await call({ type: 'attentionLab:runNormalization', options: { seeds: -1 } });
        return { set, bad, notObject, state, trace, trained, badTrain, training, norm, badNorm };
      });
      assert(r.set && r.set.ok, `setState via postMessage refused: ${short(r.set)}`);
      assertEq([r.bad.ok, r.bad.field], [false, 'temperature'], 'refusal via postMessage');
      assert(r.notObject && r.notObject.ok === false && /plain object/.test(r.notObject.error), `non-object state via postMessage: ${short(r.notObject)}`);
      assertEq([r.state.sentence, r.state.query, r.state.temperature], ['мы любим кофе', 0, 0.25], 'getState via postMessage');
      assertEq(r.trace.tokens, ['мы', 'любим', 'кофе'], 'getTrace via postMessage');
      assert(r.trained && r.trained.ok && r.trained.step === 5, `train via postMessage: ${short(r.trained, 160)}`);
      assertEq([r.badTrain.ok, r.badTrain.field], [false, 'steps'], 'train(1e9) via postMessage');
      assertEq(r.training.a.steps.length, 5, 'getTraining via postMessage');
      assert(r.norm && r.norm.ok && r.norm.scoreVariance.length > 0, `getNormalization via postMessage: ${short(r.norm, 160)}`);
      assertEq([r.badNorm.ok, r.badNorm.field], [false, 'seeds'], 'runNormalization({seeds: -1}) via postMessage');
      // The example's buttons.
      await t.page.click('button[data-preset="cat"]');
      await frame.waitForFunction(() => attentionLab.getState().sentence === 'the cat sat on the mat', null, { timeout: 10000 });
      await t.page.waitForFunction(() => /cat sat/.test(document.getElementById('log').textContent), null, { timeout: 10000 });
      // Clicking into the iframe gives the canvas keyboard focus (the iframe took the lab's
      // preferred height: scrolled into view first).
      await frameEl.scrollIntoViewIfNeeded();
      const box = await frameEl.boundingBox();
      await t.page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      assertEq(await frame.evaluate(() => document.activeElement && document.activeElement.id), 'canvas', 'focused element in the iframe after a click');
      await settle(t.page, 800);
      if (t.opts.shots) await t.page.screenshot({ path: path.join(t.opts.shots, 'embed.png') });
      assertClean(t);
    },
  },
  // ---------------------------------------------------------------------------------------
  // Learning and normalization (the Training and Normalization tabs)
  {
    name: 'training: the page API teaches «люблю» to attend to «суши» (≥ 0.8 within ' + VERB_OBJECT_STEPS + ' steps)',
    context: { locale: 'ru-RU' },
    async run(t) {
      await openLab(t);
      const r = await t.page.evaluate((limit) => {
        const state = attentionLab.getState();
        const first = attentionLab.train(0);
        const trail = [];
        let last = first, reached = -1;
        while (last.step < limit) {
          last = attentionLab.train(25);
          const w = last.exampleWeights[0][1][2];
          trail.push([last.step, Number(w.toFixed(3)), Number(last.loss.toFixed(4))]);
          if (w >= 0.8 && reached < 0) { reached = last.step; break; }
        }
        const history = attentionLab.getTraining();
        return { state, first, last, reached, trail, history };
      }, VERB_OBJECT_STEPS);
      assertEq(r.state.lang, 'ru', 'lang for a Russian browser');
      const tr = r.state.train;
      assertEq([tr.task, tr.optimizer, tr.normalizer, tr.scaled, tr.play, tr.compare, tr.example], ['verb_object', 'adam', 'softmax', true, false, '', ''], 'default training settings');
      assert(r.first.ok === true && r.first.step === 0, `train(0): ${short(r.first)}`);
      assertEq(r.first.tokens, ['я', 'люблю', 'суши'], 'the default example in Russian');
      assertEq(r.first.query, 1, 'the automatic query is the verb');
      assert(r.first.loss === null && r.first.gradNorm === null, `metrics before the first step should be null: ${short(r.first)}`);
      const w0 = r.first.exampleWeights[0][1];
      assert(Math.abs(w0.reduce((a, b) => a + b, 0) - 1) < 1e-9, `row «люблю» does not sum to 1: ${short(w0)}`);
      t.note(`«люблю» → «суши»: ${short(r.trail, 400)}`);
      assert(r.reached > 0, `«люблю» puts only ${r.last.exampleWeights[0][1][2]} on «суши» after ${r.last.step} steps`);
      assert(r.last.accuracy > 0 && r.last.gradNorm && ['WQ', 'WK', 'WV', 'WO', 'total'].every((k) => Number.isFinite(r.last.gradNorm[k])), `metrics: ${short(r.last)}`);
      assertEq(r.last.diverged, false, 'diverged');
      assertEq(r.history.a.steps.length, r.last.step, 'history length');
      assertEq(r.history.a.steps[r.last.step - 1], r.last.step, 'last history step');
      assertEq(r.history.a.loss[r.last.step - 1], r.last.loss, 'the history ends with the last metrics');
      assertEq(r.history.b, null, 'no run B without compare');
      t.note(`reached 0.8 at step ${r.reached}`);
      assertClean(t);
    },
  },
  {
    name: 'training: English example, compare (run B in lockstep), bad train input refused without a crash',
    async run(t) {
      await openLab(t);
      const r = await t.page.evaluate(() => {
        const lab = window.attentionLab;
        const en = lab.train(0);
        const set = lab.setState({ train: { compare: 'scaled', lr: 0.03 } });
        const both = lab.train(40);
        const before = JSON.stringify(lab.getState());
        const stepsBefore = both.step;
        const cases = [
          ['train not an object', { train: 3 }, 'train'],
          ['lr 0', { train: { lr: 0 } }, 'train.lr'],
          ['lr NaN', { train: { lr: NaN } }, 'train.lr'],
          ['lr as a string', { train: { lr: '0.1' } }, 'train.lr'],
          ['lr undefined', { train: { lr: undefined } }, 'train.lr'],
          ['batch 0', { train: { batch: 0 } }, 'train.batch'],
          ['dK 1000', { train: { dK: 1000 } }, 'train.dK'],
          ['heads 9', { train: { heads: 9 } }, 'train.heads'],
          ['unknown task', { train: { task: 'translate' } }, 'train.task'],
          ['unknown optimizer', { train: { optimizer: 'rmsprop' } }, 'train.optimizer'],
          ['unknown normalizer', { train: { normalizer: 'softermax' } }, 'train.normalizer'],
          ['play as a number', { train: { play: 1 } }, 'train.play'],
          ['example with unknown words', { train: { example: 'pizza is great' } }, 'train.example'],
          ['example with a lone surrogate', { train: { example: 'I \ud800 sushi' } }, 'train.example'],
          ['query past the example', { train: { query: 7 } }, 'train.query'],
          ['speed 65', { train: { speed: 65 } }, 'train.speed'],
          ['speed -1', { train: { speed: -1 } }, 'train.speed'],
          ['bad compare', { train: { compare: 'colour:red' } }, 'train.compare'],
          ['compare lr 0', { train: { compare: 'lr:0' } }, 'train.compare'],
          ['unknown train field', { train: { bogus: 1 } }, 'train.bogus'],
          ['unknown view', { view: 'learning' }, 'view'],
        ];
        const out = cases.map(([name, partial, field]) => {
          let res, threw = null;
          try { res = lab.setState(partial); } catch (e) { threw = String(e); }
          return { name, field, res, threw, unchanged: JSON.stringify(lab.getState()) === before };
        });
        const badSteps = [-1, 1.5, 5001, NaN, '10', undefined, null, Infinity].map((v) => { try { return lab.train(v); } catch (e) { return { threw: String(e) }; } });
        const after = lab.train(0);
        const refusal = lab.setState({ train: { lr: -1 } });
        return { en, set, both, out, badSteps, after, stepsBefore, refusal };
      });
      assertEq(r.en.tokens, ['I', 'love', 'sushi'], 'the default example in English');
      assert(r.set.ok, `setState compare: ${short(r.set)}`);
      assert(r.both.b && r.both.b.step === 40 && r.both.step === 40, `run B should step in lockstep: ${short(r.both, 200)}`);
      assertEq(r.both.compare, 'scaled', 'compare');
      assert(r.both.b.loss !== r.both.loss, 'run B (no ÷√d_k) should differ from run A');
      const bad = [];
      for (const c of r.out) {
        if (c.threw) bad.push(`${c.name}: threw ${c.threw}`);
        else if (!c.res || c.res.ok !== false || c.res.field !== c.field || !c.res.error) bad.push(`${c.name}: expected {ok: false, field: "${c.field}"}, got ${short(c.res, 160)}`);
        if (!c.unchanged) bad.push(`${c.name}: the state changed`);
      }
      r.badSteps.forEach((x, i) => { if (!x || x.ok !== false || x.field !== 'steps') bad.push(`train(${['-1', '1.5', '5001', 'NaN', "'10'", 'undefined', 'null', 'Infinity'][i]}): ${short(x, 160)}`); });
      assert(bad.length === 0, `${bad.length} problem(s):\n    ${bad.join('\n    ')}`);
      assertEq(r.after.step, r.stepsBefore, 'refused input must not reset or step the runs');
      assert(/train\.lr/.test(r.refusal.error) || r.refusal.field === 'train.lr', `refusal: ${short(r.refusal)}`);
      await settle(t.page, 300);
      assertEq(await t.page.evaluate(() => attentionLab.status), 'ready', 'status after bad input');
      assertClean(t);
    },
  },
  {
    name: 'training: clicking ▶ Play advances the step counter, the page stays responsive, ▮▮ Pause stops it',
    async run(t) {
      await openLab(t, 'index.html#view=training');
      await settle(t.page, 800);
      if (t.opts.shots) await t.page.locator('#canvas').screenshot({ path: path.join(t.opts.shots, 'training-before-play.png') });
      await t.page.mouse.click(PLAY_BUTTON.x, PLAY_BUTTON.y);
      await t.page.waitForFunction(() => attentionLab.getState().train.play === true, null, { timeout: 10000 })
        .catch(() => { throw new TestFailure(`clicking (${PLAY_BUTTON.x}, ${PLAY_BUTTON.y}) did not start playing: is ▶ Play still there?`); });
      const r = await t.page.evaluate(async () => {
        const s0 = attentionLab.getTraining().a.steps.length;
        // requestAnimationFrame keeps firing while the lab trains, and the API answers.
        let frames = 0, gaps = [], last = performance.now();
        const start = last;
        await new Promise((res) => { const f = (now) => { frames++; gaps.push(now - last); last = now; if (now - start < 3000) requestAnimationFrame(f); else res(); }; requestAnimationFrame(f); });
        const set = attentionLab.setState({ train: { query: 2 } });
        const state = attentionLab.getState();
        const s1 = attentionLab.getTraining().a.steps.length;
        return { s0, s1, frames, maxGap: Math.max(...gaps), set, play: state.train.play, query: state.train.query };
      });
      t.note(`${r.s1 - r.s0} steps in 3 s while playing, ${r.frames} animation frames, longest gap ${r.maxGap.toFixed(0)} ms`);
      assert(r.s1 > r.s0, `the step counter did not advance while playing (${r.s0} -> ${r.s1})`);
      assert(r.frames >= 6, `only ${r.frames} animation frames in 3 s while training`);
      assert(r.maxGap < 1500, `the page froze for ${r.maxGap.toFixed(0)} ms while training`);
      assert(r.set.ok && r.play === true && r.query === 2, `setState while playing: ${short(r.set, 200)}`);
      if (t.opts.shots) await t.page.locator('#canvas').screenshot({ path: path.join(t.opts.shots, 'training-playing.png') });
      await t.page.mouse.click(PLAY_BUTTON.x, PLAY_BUTTON.y);
      await t.page.waitForFunction(() => attentionLab.getState().train.play === false, null, { timeout: 10000 })
        .catch(() => { throw new TestFailure('clicking ▮▮ Pause did not stop playing'); });
      const a = await t.page.evaluate(() => attentionLab.getTraining().a.steps.length);
      await settle(t.page, 600);
      const b = await t.page.evaluate(() => attentionLab.getTraining().a.steps.length);
      assertEq(b, a, 'steps after pausing');
      // The speed is a setting of the state, and changing it does not start the runs again.
      const c = await t.page.evaluate(() => {
        const r = attentionLab.setState({ train: { speed: 8 } });
        return { ok: r.ok, steps: attentionLab.getTraining().a.steps.length, speed: attentionLab.getState().train.speed };
      });
      assert(c.ok && c.speed === 8 && c.steps === b, `setState({train: {speed: 8}}): ${short(c, 200)} (steps before: ${b})`);
      // "+500 steps": a long run in the page's frames, with a progress bar, then it stops.
      await t.page.mouse.click(RUN_STEPS_BUTTON.x, RUN_STEPS_BUTTON.y);
      await t.page.waitForFunction((n) => attentionLab.getTraining().a.steps.length > n, b, { timeout: 10000 })
        .catch(() => { throw new TestFailure(`clicking (${RUN_STEPS_BUTTON.x}, ${RUN_STEPS_BUTTON.y}) did not start a long run: is "+500 steps" still there?`); });
      if (t.opts.shots) await t.page.locator('#canvas').screenshot({ path: path.join(t.opts.shots, 'training-long-run.png') });
      await t.page.waitForFunction((n) => attentionLab.getTraining().a.steps.length >= n + 500, b, { timeout: 120000, polling: 250 });
      await settle(t.page, 600);
      const d = await t.page.evaluate(() => ({ steps: attentionLab.getTraining().a.steps.length, play: attentionLab.getState().train.play }));
      assert(d.steps === b + 500 && d.play === false, `after "+500 steps": ${short(d)} (expected ${b + 500} steps, not playing)`);
      assertNonBlank(await canvasStats(t), 'training tab');
      assertClean(t);
    },
  },
  {
    name: 'training: a diverging run stops playing and says why; new settings start again',
    async run(t) {
      await openLab(t, 'index.html#view=training');
      const r0 = await t.page.evaluate(() => attentionLab.setState({ train: { normalizer: 'none', scaled: false, optimizer: 'sgd', lr: 10, play: true } }));
      assert(r0.ok, `setState: ${short(r0)}`);
      await t.page.waitForFunction(() => attentionLab.getState().train.play === false, null, { timeout: 60000 })
        .catch(() => { throw new TestFailure('playing did not stop on a diverging run'); });
      const r = await t.page.evaluate(() => ({ training: attentionLab.getTraining(), more: attentionLab.train(10), hash: location.hash }));
      assert(r.training.a.diverged === true && /\S/.test(r.training.a.message), `diverged/message: ${short(r.training.a.current, 200)}`);
      assertEq(r.more.step, r.training.a.steps.length, 'a diverged run takes no more steps');
      assertEq(r.more.diverged, true, 'train() on a diverged run');
      t.note(`diverged after ${r.training.a.steps.length} steps: ${r.training.a.message}`);
      await settle(t.page, 800);
      await canvasStats(t, 'training-diverged.png');
      const again = await t.page.evaluate(() => { attentionLab.setState({ train: { lr: 0.01, optimizer: 'adam', normalizer: 'softmax', scaled: true } }); return attentionLab.train(5); });
      assert(again.ok && again.step === 5 && !again.diverged, `after new settings: ${short(again, 200)}`);
      assertClean(t);
    },
  },
  {
    name: 'training: the page and the native attnlab train agree step by step (to 1e-9)',
    async run(t) {
      assert(t.opts.attnlab && fs.existsSync(t.opts.attnlab), `native tool not found: ${t.opts.attnlab}`);
      await openLab(t);
      // Not bit for bit: exp comes from each platform's libm (see src/engine/training/train.h). Last-bit
      // differences stay ~1e-16 over 60 steps of a well-conditioned run; a saturated softmax
      // (unscaled, d_k 64) amplifies them (measured: 7e-9 by step 27, 1.5e-6 by step 34), so that
      // run is compared over its first 10 steps.
      const cases = [
        ['verb_object, 2 heads, seed 3', { task: 'verb_object', example: 'я люблю суши', heads: 2, seed: 3 }, 60],
        ['previous, causal sparsemax, SGD', { task: 'previous', length: 5, example: 'h c a f d', normalizer: 'sparsemax', causal: true, optimizer: 'sgd', lr: 0.5, seed: 9 }, 60],
        ['max, unscaled, dK 64', { task: 'max', length: 6, example: '', scaled: false, dK: 64, heads: 1, seed: 2 }, 10],
      ];
      let worst = 0, numbers = 0;
      for (const [name, cfg, STEPS] of cases) {
        const web = await t.page.evaluate(({ cfg, steps }) => {
          const set = attentionLab.setState({ train: { ...cfg, play: false, compare: '' } });
          const r = attentionLab.train(steps);
          return { set, r, h: attentionLab.getTraining().a, train: attentionLab.getState().train };
        }, { cfg, steps: STEPS });
        assert(web.set.ok && web.r.ok, `${name}: ${short(web.set)} ${short(web.r)}`);
        // Every setting the page used (a patch keeps what it does not name), and its example.
        const { compare, play, speed, query, ...settings } = web.train;
        const input = { ...settings, example: web.r.tokens.join(' '), steps: STEPS };
        const lines = (await runNativeText(t.opts.attnlab, 'train', input, t.tmp, name.replace(/\W+/g, '_'), ['--every', '1']))
          .trim().split('\n').map((l) => JSON.parse(l));
        const steps = lines.filter((x) => 'step' in x);
        const final = lines.find((x) => x.final);
        assertEq(steps.length, STEPS, `${name}: native steps`);
        assertEq(web.h.loss.length, STEPS, `${name}: page steps`);
        const close = (a, b, what) => {
          const d = Math.abs(a - b) / Math.max(1, Math.abs(a));
          assert(d <= 1e-9, `${name}: ${what}: native ${a}, page ${b}`);
          worst = Math.max(worst, d); numbers++;
        };
        for (let k = 0; k < STEPS; k++) {
          close(steps[k].loss, web.h.loss[k], `loss at step ${k + 1}`);
          close(steps[k].accuracy, web.h.accuracy[k], `accuracy at step ${k + 1}`);
          close(steps[k].gradNorm.WQ, web.h.gradNorm.WQ[k], `|dL/dW_Q| at step ${k + 1}`);
        }
        assertEq(JSON.stringify(final.final.tokens), JSON.stringify(web.r.tokens), `${name}: example tokens`);
        final.final.heads.forEach((w, h) => w.forEach((row, i) => row.forEach((x, j) => close(x, web.r.exampleWeights[h][i][j], `weight h${h} (${i}, ${j})`))));
      }
      t.note(`${numbers} numbers compared, max relative diff ${worst}`);
      assertClean(t);
    },
  },
  {
    name: 'training: a link opens the lab playing (#view=training&train.play=1&train.compare=scaled)',
    async run(t) {
      await openLab(t, 'index.html#view=training&train.play=1&train.compare=scaled&train.lr=0.03');
      await t.page.waitForFunction(() => attentionLab.getTraining().a.steps.length >= 3, null, { timeout: 30000 });
      const r = await t.page.evaluate(() => ({ state: attentionLab.getState(), training: attentionLab.getTraining(), hash: decodeURIComponent(location.hash) }));
      assertEq([r.state.view, r.state.train.play, r.state.train.compare, r.state.train.lr], ['training', true, 'scaled', 0.03], 'state from the link');
      assert(r.training.b && r.training.b.steps.length >= 3, `run B is not training: ${short(r.training.b, 120)}`);
      assert(/train\.compare=scaled/.test(r.hash) && /train\.lr=0\.03/.test(r.hash) && /view=training/.test(r.hash), `hash: ${r.hash}`);
      assert(!/train\.batch/.test(r.hash), `default training fields should stay out of the hash: ${r.hash}`);
      // A bad training field in the link is listed, the rest applied.
      await openLab(t, 'index.html#train.lr=abc&train.dK=32&train.nope=1');
      const s = await t.page.evaluate(() => ({ state: attentionLab.getState(), notice: (document.getElementById('notice') || {}).textContent || '' }));
      assertEq([s.state.train.dK, s.state.train.lr], [32, 0.01], 'train.dK applied, train.lr refused');
      assert(/train\.lr/.test(s.notice) && /train\.nope/.test(s.notice), `the notice does not list the refused parameters: "${s.notice}"`);
      assert(t.monitor.pageErrors.length === 0 && t.monitor.consoleErrors.length === 0, `errors: ${t.monitor.pageErrors.concat(t.monitor.consoleErrors).slice(0, 3).join(' | ')}`);
    },
  },
  {
    name: 'views "training" and "normalization" bring their tabs to the front (laptop screenshots)',
    async run(t) {
      await openLab(t);
      await settle(t.page, 600);
      const attention = decodePNG(await t.page.locator('#canvas').screenshot({ type: 'png' }));
      const differs = pixelsDiffer;
      const shots = {};
      for (const [view, file] of [['training', 'training.png'], ['normalization', 'normalization.png']]) {
        const res = await t.page.evaluate((v) => {
          const r = attentionLab.setState({ view: v });
          if (v === 'training') { attentionLab.setState({ train: { compare: 'scaled' } }); attentionLab.train(150); }
          return r;
        }, view);
        assert(res.ok, `setState({view: "${view}"}): ${short(res)}`);
        await settle(t.page, 1500);
        assertEq(await panelsDrawn(t), view, `panels drawn with view "${view}" (its tab alone)`);
        const png = await t.page.locator('#canvas').screenshot({ type: 'png' });
        if (t.opts.shots) fs.writeFileSync(path.join(t.opts.shots, file), png);
        shots[view] = decodePNG(png);
        const d = differs(attention, shots[view]);
        t.note(`${view}: ${(100 * d).toFixed(0)}% of the pixels differ from the attention page`);
        assert(d > 0.2, `view "${view}" looks like the attention page (${(100 * d).toFixed(1)}% of the pixels differ)`);
        assertNonBlank(imageStats(shots[view]), view);
      }
      assert(differs(shots.training, shots.normalization) > 0.2, 'the training and normalization tabs look the same');
      // Back to the attention page's information tab.
      const back = await t.page.evaluate(() => attentionLab.setState({ view: 'information' }));
      assert(back.ok, 'setState({view: "information"})');
      await settle(t.page, 1000);
      assert(differs(attention, decodePNG(await t.page.locator('#canvas').screenshot({ type: 'png' }))) < 0.6, 'view "information" did not return to the attention page');
      assertClean(t);
    },
  },
  {
    name: 'normalization: the experiments have the expected shape and the curves run to completion',
    async run(t) {
      await openLab(t, 'index.html#view=normalization');
      const r0 = await t.page.evaluate(() => {
        const n = attentionLab.getNormalization();
        const bad = [{ seeds: 0 }, { steps: 1e6 }, { bogus: 1 }, 'x', [1]].map((o) => attentionLab.runNormalization(o));
        const started = attentionLab.runNormalization({ seeds: 2, steps: 40 });
        return { n, bad, started };
      });
      const n = r0.n;
      assert(n.ok && n.curves === null, `before running: ${short(n, 200)}`);
      assert(n.scoreVariance.length >= 5, 'scoreVariance points');
      for (const p of n.scoreVariance) {
        assertEq([p.analyticUnscaled, p.analyticScaled], [p.dK, 1], `analytic variances at d_k = ${p.dK}`);
        assert(Math.abs(p.varUnscaled / p.dK - 1) < 0.25 && Math.abs(p.varScaled - 1) < 0.25, `measured variance at d_k = ${p.dK}: ${short(p)}`);
      }
      const sat = n.saturation;
      assert(sat[sat.length - 1].entropyUnscaled < sat[0].entropyUnscaled / 2, `unscaled entropy should fall with d_k: ${short(sat.map((p) => p.entropyUnscaled))}`);
      assert(sat[sat.length - 1].gradUnscaled < sat[sat.length - 1].gradScaled, 'at the largest d_k the unscaled gradient should be smaller');
      const soft = n.outputNorm.normalizers.indexOf('softmax');
      assert(soft >= 0 && n.outputNorm.points.every((p) => p.norm[soft] <= p.bound + 1e-9), 'softmax output above the max ‖v‖ bound');
      r0.bad.forEach((b, i) => assert(b && b.ok === false, `bad runNormalization options #${i} accepted: ${short(b)}`));
      assert(r0.started.ok, `runNormalization: ${short(r0.started)}`);
      await t.page.waitForFunction(() => { const c = attentionLab.getNormalization().curves; return c && c.done; }, null, { timeout: 240000, polling: 500 });
      const c = await t.page.evaluate(() => attentionLab.getNormalization().curves);
      assertEq([c.progress, c.running, c.steps, c.seeds], [1, false, 40, 2], 'curves when done');
      assert(c.series.length >= 8, `${c.series.length} series`);
      for (const s of c.series) {
        assert(s.lossMean.length === 40 || s.diverged > 0, `${s.label}: ${s.lossMean.length} loss points`);
        assert(s.lossMean.every((x, i) => x === null || (s.lossMin[i] <= x + 1e-12 && x <= s.lossMax[i] + 1e-12)), `${s.label}: mean outside min..max`);
      }
      await settle(t.page, 800);
      const shot = await canvasStats(t, 'normalization-curves.png');
      assertNonBlank(shot, 'normalization with curves');
      // The real button starts them again (with the panel's seeds and steps: 2 and 40 now).
      await t.page.mouse.click(RUN_CURVES_BUTTON.x, RUN_CURVES_BUTTON.y);
      await t.page.waitForFunction(() => { const c = attentionLab.getNormalization().curves; return c && (c.running || c.progress < 1); }, null, { timeout: 10000, polling: 'raf' })
        .catch(() => { throw new TestFailure(`clicking (${RUN_CURVES_BUTTON.x}, ${RUN_CURVES_BUTTON.y}) did not start the curves: is "Run the experiment" still there?`); });
      await t.page.waitForFunction(() => { const c = attentionLab.getNormalization().curves; return c && c.done; }, null, { timeout: 240000, polling: 500 });
      const again = await t.page.evaluate(() => attentionLab.getNormalization().curves);
      assertEq([again.steps, again.seeds, again.series.length], [40, 2, c.series.length], 'curves after the button');
      assertClean(t);
    },
  },
  {
    name: 'phone 390x844: the Training and Normalization tabs draw',
    context: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'ru-RU' },
    async run(t) {
      await openLab(t, 'index.html#view=training');
      const r = await t.page.evaluate(() => attentionLab.train(120));
      assert(r.ok && r.step === 120, `train on the phone: ${short(r, 200)}`);
      await settle(t.page, 1200);
      // The phone shows one tab at a time: the lab writes the panels it drew to data-panels.
      assertEq(await panelsDrawn(t), 'training', 'panels drawn on the phone with view "training"');
      const training = await t.page.locator('#canvas').screenshot({ type: 'png' });
      if (t.opts.shots) fs.writeFileSync(path.join(t.opts.shots, 'phone-training.png'), training);
      assertNonBlank(imageStats(decodePNG(training)), 'phone training');
      const res = await t.page.evaluate(() => attentionLab.setState({ view: 'normalization' }));
      assert(res && res.ok === true, `setState({view: "normalization"}) on the phone: ${short(res)}`);
      await settle(t.page, 1500);
      assertEq(await panelsDrawn(t), 'normalization', 'panels drawn on the phone with view "normalization" (the Normalization tab alone)');
      const normalization = await t.page.locator('#canvas').screenshot({ type: 'png' });
      if (t.opts.shots) fs.writeFileSync(path.join(t.opts.shots, 'phone-normalization.png'), normalization);
      assertNonBlank(imageStats(decodePNG(normalization)), 'phone normalization');
      const d = pixelsDiffer(decodePNG(training), decodePNG(normalization));
      t.note(`phone: ${(100 * d).toFixed(0)}% of the pixels differ between the Training and Normalization tabs`);
      assert(d > 0.2, `the phone's Normalization tab looks like its Training tab (${(100 * d).toFixed(1)}% of the pixels differ)`);
      assertClean(t);
    },
  },
  {
    name: 'Russian on every view at laptop 1280x800 and phone 390x844 (screenshots ru-*.png to look at)',
    timeout: 300,
    async run(t) {
      await openLab(t);
      // The runs and the curves first, so that their tabs show numbers, labels and messages.
      const prep = await t.page.evaluate(() => {
        const set = attentionLab.setState({ lang: 'ru', train: { compare: 'scaled' } });
        const trained = attentionLab.train(150);
        const curves = attentionLab.runNormalization({ seeds: 2, steps: 20 });
        return { set, trained, curves };
      });
      assert(prep.set.ok && prep.trained.ok && prep.curves.ok, `preparing: ${short(prep, 300)}`);
      await t.page.waitForFunction(() => { const c = attentionLab.getNormalization().curves; return c && c.done; }, null, { timeout: 120000, polling: 500 });
      // Each view, then a few states whose Russian text is easy to miss: the causal mask's
      // «замаскирован», a refused training example, a diverged run.
      const states = [
        ...['sentence', 'steps', 'weights', 'vectors', 'information', 'training', 'normalization'].map((v) => [v, { view: v }]),
        ['steps-causal', { view: 'steps', causal: true, sentence: 'я очень люблю суши и чай', query: 2 }],
        ['information-causal', { view: 'information', causal: true, dV: 2 }],
      ];
      for (const [size, viewport] of [['laptop', LAPTOP], ['phone', { width: 390, height: 844 }]]) {
        await t.page.setViewportSize(viewport);
        await t.page.evaluate(() => attentionLab.setState({ causal: false, sentence: 'я люблю суши', query: 1, dV: 3 }));
        for (const [name, patch] of states) {
          const r = await t.page.evaluate((p) => attentionLab.setState({ lang: 'ru', ...p }), patch);
          assert(r.ok, `${size} ${name}: setState ${short(r)}`);
          await settle(t.page, 600);
          assertNonBlank(await canvasStats(t, `ru-${size}-${name}.png`), `${size} ${name} in Russian`);
        }
        const refused = await t.page.evaluate(() => attentionLab.setState({ view: 'training', train: { example: 'я люблю пиццу' } }));
        assertEq([refused.ok, refused.field], [false, 'train.example'], `${size}: an unknown word in the example`);
        await settle(t.page, 900);
        await canvasStats(t, `ru-${size}-training-refused.png`);
      }
      // A diverged run, in Russian (laptop and phone).
      const d = await t.page.evaluate(() => {
        attentionLab.setState({ view: 'training', train: { compare: '', normalizer: 'none', scaled: false, optimizer: 'sgd', lr: 10 } });
        return attentionLab.train(400);
      });
      assert(d.ok && d.diverged, `the run did not diverge: ${short(d, 200)}`);
      for (const [size, viewport] of [['laptop', LAPTOP], ['phone', { width: 390, height: 844 }]]) {
        await t.page.setViewportSize(viewport);
        await settle(t.page, 900);
        await canvasStats(t, `ru-${size}-training-diverged.png`);
      }
      assertClean(t);
    },
  },
  {
    name: 'lesson: every step at 1280x800 in English, then in Russian, predicted with the keyboard, state checked',
    timeout: 420,
    async run(t) {
      await walkLessonLaptop(t, 'en');
      await walkLessonLaptop(t, 'ru');
      // A course page switches the lesson off: the panel goes, the predictions stay in the state.
      const off = await t.page.evaluate(() => attentionLab.setState({ lesson: 0 }));
      assert(off.ok && off.state.lesson === 0 && off.state.predictions === 'bacacbbc', `lesson 0: ${short(off)}`);
      await settle(t.page, 400);
      assert(!(await panelsDrawn(t)).split(' ').includes('lesson'), `lesson 0 still draws the lesson: ${await panelsDrawn(t)}`);
      const bad = await t.page.evaluate(() => attentionLab.setState({ lesson: 9 }));
      assertEq([bad.ok, bad.field, bad.error], [false, 'lesson', 'lesson: expected an integer from 0 to 8, got 9'], 'lesson 9 refused');
      assertClean(t);
    },
  },
  {
    name: 'lesson: every step on a phone 390x844 in both languages (a card above the tabs); a link opens step 3',
    context: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
    timeout: 300,
    async run(t) {
      await openLab(t, 'index.html#lesson=3&lang=ru');
      let s = await t.page.evaluate(() => attentionLab.getState());
      assertEq([s.lesson, s.heads, s.dV, s.lang], [3, 4, 2, 'ru'], 'the link #lesson=3 opens step 3 with its settings');
      for (const lang of ['en', 'ru']) {
        for (let k = 1; k <= LESSON.length; k++) {
          const r = await t.page.evaluate(([lang, k]) => attentionLab.setState({ lang, lesson: k, predictions: 'bacacbbc' }), [lang, k]);
          assert(r.ok, `${lang} step ${k}: ${short(r)}`);
          assert(LESSON[k - 1].answer(r.state), `${lang} step ${k} (revealed on entry): ${short(r.state, 300)}`);
          await settle(t.page, 700);
          const drawn = (await panelsDrawn(t)).split(' ');
          assert(drawn.includes('lesson') && drawn.length >= 2, `${lang} step ${k}: panels drawn on the phone: ${drawn.join(' ')}`);
          assertNonBlank(await canvasStats(t, `lesson-${lang}-${k}-phone.png`), `${lang} step ${k} on the phone`);
        }
        await t.page.evaluate(() => attentionLab.setState({ lesson: 0 }));
      }
      assertClean(t);
    },
  },
];

// The lab as a guest of a course page (render on demand, wheel and touch, several embeds, phones'
// keyboards, postMessage hygiene, auto-height): page_citizen.mjs, with this file's helpers.
tests.push(...pageCitizenTests({ TestFailure, assert, assertEq, short, sleep, openLab, settle, decodePNG, imageStats,
                                 pixelsDiffer, assertNonBlank, assertClean, startServer, SENTENCE_BOX }));
// Exports (PNG, SVG, CSV, JSON), the screen-reader table, reduced motion: export.mjs.
tests.push(...exportTests({ assert, assertEq, short, sleep, openLab, settle, decodePNG, assertClean }));
// The Information panel on a real head of the shipped model, against attnlab collide: model_info.mjs.
tests.push(...modelInfoTests({ assert, short, sleep, openLab, settle, canvasStats, assertNonBlank, assertClean }));

// A lab configured for a lesson (hide, lock, view) and shared (link, snippet, the Share button):
// flags.mjs.
tests.push(...flagsTests({ assert, assertEq, short, sleep, openLab, settle, decodePNG, imageStats, assertNonBlank,
                           assertClean, startServer }));
// Lessons as documents (issue 24): an authored lesson in a cross-origin iframe, its answer events,
// #lessonUrl, the built-in lesson from its file: authored_lesson.mjs.
tests.push(...authoredLessonTests({ assert, assertEq, short, sleep, openLab, settle, decodePNG, imageStats, assertNonBlank,
                                    assertClean, startServer }));
// "Train it more" in model mode (issue 13): model_train.mjs.
tests.push(...modelTrainTests({ assert, assertEq, short, sleep, openLab, settle, assertClean }));

// The trained model in the lab (issue 13): lazy files, getTrace against `attnlab model run`, the
// head gallery, a failing fetch: model.mjs.
tests.push(...modelTests({ assert, assertEq, short, sleep, openLab, settle, decodePNG, assertClean }));

// What if, and what mattered (issue 23): the comparison against two traces and attnlab, the
// shuffle, a dragged value, links, refusals, the tab on a phone: whatif.mjs.
tests.push(...whatIfTests({ TestFailure, assert, assertEq, short, openLab, settle, decodePNG, assertClean, compareJSON,
                            runNative }));

// ------------------------------------------------------------------------------------------
// Runner
async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(path.join(opts.site, 'index.html'))) { console.error(`run.mjs: no index.html in ${opts.site}`); process.exit(2); }
  if (opts.shots) fs.mkdirSync(opts.shots, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-browser-'));
  const server = await startServer(opts.site);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const origin = new URL(base).origin;
  const browser = await chromium.launch({
    executablePath: opts.browser,
    headless: true,
    args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--no-sandbox', '--disable-background-networking',
           '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  console.log(`# serving ${path.resolve(opts.site)} at ${base}; chromium ${browser.version()}`);

  const selected = tests.filter((x) => !opts.only || x.name.includes(opts.only));
  let passed = 0, failed = 0;
  for (const test of selected) {
    const ctxOpts = { viewport: LAPTOP, locale: 'en-US', ...(test.context || {}) };
    const context = await browser.newContext(ctxOpts);
    const monitor = { consoleErrors: [], warnings: [], pageErrors: [], foreign: [], httpErrors: [], requests: [], responses: [] };
    // Anything outside the server's origin (and the origins a test serves itself: t.allowOrigin)
    // is recorded and blocked (data: URLs never get here).
    const allowed = new Set([origin]);
    await context.route((url) => !allowed.has(url.origin), (route) => { monitor.foreign.push(route.request().url()); return route.abort(); });
    context.on('page', (p) => watch(p));
    function watch(p) {
      p.on('console', (m) => {
        if (m.type() === 'error') monitor.consoleErrors.push(m.text());
        else if (m.type() === 'warning') monitor.warnings.push(m.text());
      });
      p.on('pageerror', (e) => monitor.pageErrors.push(String(e && e.stack || e).split('\n').slice(0, 3).join(' ')));
      p.on('request', (q) => monitor.requests.push(q.url()));
      p.on('response', (s) => {
        monitor.responses.push({ url: s.url(), status: s.status(), headers: s.headers() });
        if (s.status() >= 400) monitor.httpErrors.push(`${s.status()} ${s.url()}`);
      });
    }
    const page = await context.newPage();
    page.setDefaultTimeout(60000);
    const notes = [];
    const cleanups = [];
    const t = { page, context, base, opts, tmp, server, monitor, note: (s) => notes.push(s),
                allowOrigin: (o) => allowed.add(o), onCleanup: (f) => cleanups.push(f) };
    let timer;
    const limit = Math.max(opts.timeout, test.timeout || 0);  // a long walk (the lesson) names its own
    const started = Date.now();
    try {
      await Promise.race([
        test.run(t),
        new Promise((_, reject) => { timer = setTimeout(() => reject(new TestFailure(`timed out after ${limit} s`)), limit * 1000); }),
      ]);
      passed++;
      console.log(`ok - ${test.name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    } catch (e) {
      failed++;
      const reason = e instanceof TestFailure ? e.message : String(e && e.stack || e);
      console.log(`not ok - ${test.name}: ${reason}`);
      if (monitor.consoleErrors.length && !/console error/.test(reason)) notes.push(`console errors: ${monitor.consoleErrors.slice(0, 3).join(' | ')}`);
      if (monitor.pageErrors.length && !/page error/.test(reason)) notes.push(`page errors: ${monitor.pageErrors.slice(0, 3).join(' | ')}`);
      if (t.opts.shots) await page.screenshot({ path: path.join(t.opts.shots, `failed-${test.name.replace(/\W+/g, '_').slice(0, 60)}.png`) }).catch(() => {});
    } finally {
      clearTimeout(timer);
      server.noContentLength = false;
      for (const n of notes) console.log(`#   ${n}`);
      await context.close().catch(() => {});
      for (const f of cleanups) await Promise.resolve().then(f).catch(() => {});
    }
  }
  await browser.close();
  server.close();
  fs.rmSync(tmp, { recursive: true, force: true });
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main().catch((e) => {
  console.error(`run.mjs: ${e && e.stack || e}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
