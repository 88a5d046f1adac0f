#!/usr/bin/env node
// Browser tests of the Attention Lab web page (web/ + the emcc build), run by ctest as
//
//   node tests/browser/run.mjs --site build/wasm-release/site --attnlab build/native-release/attnlab
//        [--fixtures build/native-release/fixtures/gpt2] [--llama-fixtures build/native-release/fixtures/llama]
//        [--shots DIR] [--only SUBSTRING]
//        [--timeout SECONDS] [--browser /usr/bin/chromium]
//
// Serves --site from its own static HTTP server on 127.0.0.1 (random port), drives Debian's
// chromium through playwright-core (WebGL2 via SwiftShader), runs each named test in a fresh
// browser context and prints TAP-like lines:  ok - name  /  not ok - name: reason
// and finally "N passed, M failed". Exit code 1 if any test failed (2 on bad usage).
// --shots DIR saves screenshots (laptop, phone, embed, error panels) for a human to look at.
//
// The tests live by feature in features/*.mjs (README.md there says which file holds what); the
// helpers they share in lib/. This file only runs them.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchChromium } from './lib/chromium.mjs';
import { TestFailure } from './lib/assert.mjs';
import { LAPTOP } from './lib/page.mjs';
import { startServer } from './lib/server.mjs';
import { pageTests } from './features/page.mjs';
import { informationTests } from './features/information.mjs';
import { inputTests } from './features/input.mjs';
import { i18nTests } from './features/i18n.mjs';
import { screensTests } from './features/screens.mjs';
import { loadingTests } from './features/loading.mjs';
import { embedTests } from './features/embed.mjs';
import { trainingTests } from './features/training.mjs';
import { normalizationTests } from './features/normalization.mjs';
import { lessonTests } from './features/lesson.mjs';
import { pageCitizenTests } from './features/page_citizen.mjs';
import { exportTests } from './features/export.mjs';
import { modelInfoTests } from './features/model_info.mjs';
import { flagsTests } from './features/flags.mjs';
import { authoredLessonTests } from './features/authored_lesson.mjs';
import { modelTrainTests } from './features/model_train.mjs';
import { modelTests } from './features/model.mjs';
import { whatIfTests } from './features/whatif.mjs';
import { courseAuthorTests } from './features/course_author.mjs';
import { checkpointTests } from './features/checkpoint.mjs';
import { predictionTests } from './features/prediction.mjs';

// ------------------------------------------------------------------------------------------
// Command line
function parseArgs(argv) {
  const opts = { site: null, attnlab: null, shots: null, only: null, timeout: 120, browser: '/usr/bin/chromium', fixtures: null, llamaFixtures: null };
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
    else if (a === '--fixtures') opts.fixtures = take();
    else if (a === '--llama-fixtures') opts.llamaFixtures = take();
    else if (a === '-h' || a === '--help') usage(null);
    else usage(`unknown option ${a}`);
  }
  if (!opts.site) usage('--site is required');
  if (!(opts.timeout > 0)) usage('--timeout must be a positive number of seconds');
  return opts;
}
function usage(err) {
  const text = 'usage: node tests/browser/run.mjs --site DIR --attnlab PATH [--fixtures DIR] [--llama-fixtures DIR] [--shots DIR] [--only SUBSTRING] [--timeout SECONDS] [--browser PATH]';
  if (err) { console.error(`run.mjs: ${err}\n${text}`); process.exit(2); }
  console.log(text); process.exit(0);
}

// ------------------------------------------------------------------------------------------
// Every test, feature by feature: each is { name, run(t), context?, timeout? }.
const tests = [
  ...pageTests, ...informationTests, ...inputTests, ...i18nTests, ...screensTests, ...loadingTests, ...embedTests,
  ...trainingTests, ...normalizationTests, ...lessonTests,
  ...pageCitizenTests(), ...exportTests(), ...modelInfoTests(), ...flagsTests(), ...authoredLessonTests(),
  ...modelTrainTests(), ...modelTests(), ...whatIfTests(), ...courseAuthorTests(), ...checkpointTests(),
  ...predictionTests(),
];

// ------------------------------------------------------------------------------------------
// Runner
async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(path.join(opts.site, 'index.html'))) { console.error(`run.mjs: no index.html in ${opts.site}`); process.exit(2); }
  if (opts.shots) fs.mkdirSync(opts.shots, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attnlab-browser-'));
  // the GPT-2 checkpoints (scripts/gpt2_fixture.py: CTest's fixture "gpt2") under /fixtures/
  // and each test's own files (t.tmp) under /tmp/
  // (the Llama family's, scripts/llama_fixture.py: CTest's fixture "llama", under /llama/)
  const server = await startServer(opts.site, {
    '/tmp/': tmp, ...(opts.fixtures ? { '/fixtures/': opts.fixtures } : {}),
    ...(opts.llamaFixtures ? { '/llama/': opts.llamaFixtures } : {}),
  });
  const base = `http://127.0.0.1:${server.address().port}/`;
  const origin = new URL(base).origin;
  const browser = await launchChromium(opts.browser);
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
    server.requests = [];
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
