// Browser tests: what a course author meets (issue 42). Every request of the page API reaches a
// lab in a cross-origin iframe by postMessage and is answered, the unknown ones with an error
// naming them; the list of requests in docs/page-api.md is the lab's. Run by run.mjs.
import fs from 'node:fs';
import zlib from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assert, assertEq, short } from '../lib/assert.mjs';
import { assertClean, openLab, settle, sleep } from '../lib/page.mjs';
import { coursePage, courseSite, labFrames } from '../lib/course.mjs';

const DOCS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs');

// The request types of docs/page-api.md's table (between its begin and end markers).
function documentedRequests() {
  const text = fs.readFileSync(path.join(DOCS, 'page-api.md'), 'utf8');
  const table = text.split('<!-- postMessage requests: begin')[1].split('<!-- postMessage requests: end')[0];
  return [...table.matchAll(/^\| `attentionLab:([A-Za-z]+)` \|/gm)].map((m) => m[1]);
}

// The payload table of docs/model-mode.md (scripts/doc_sizes.mjs writes it): per row, the sizes
// as served and gzipped, in bytes, and the files the row names.
function documentedPayload() {
  const text = fs.readFileSync(path.join(DOCS, 'model-mode.md'), 'utf8');
  const table = text.split('<!-- payload sizes: begin')[1].split('<!-- payload sizes: end')[0];
  const bytes = (v) => { const [n, u] = v.trim().split(' '); return Number(n) * (u === 'MB' ? 1048576 : 1024); };
  return [...table.matchAll(/^\| ([^|]+) \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$/gm)]
    .filter((m) => /KB|MB/.test(m[3])).map((m) => ({ title: m[1], files: m[2], raw: bytes(m[3]), gz: bytes(m[4]) }));
}

// Harmless arguments for each request (a refusal is an answer too).
const ARGUMENTS = {
  setState: { state: { temperature: 2 } },
  train: { steps: 2 },
  runNormalization: { options: { seeds: 1, steps: 5 } },
  export: { options: { what: 'weights', format: 'csv' } },
  download: { options: { what: 'weights', format: 'csv' } },
  setLesson: { lesson: { id: 'x' } },
  answerLesson: { choice: 0 },
  tuneModel: { options: { steps: 1 } },
};

// The course page of embed-example.html: each lab's iframe takes the height the lab posts.
const RESIZE = `<script>addEventListener('message', (ev) => {
  if (!ev.data || ev.data.type !== 'attentionLab:height' || typeof ev.data.height !== 'number') return;
  document.querySelectorAll('iframe').forEach((f) => { if (f.contentWindow === ev.source) f.style.height = ev.data.height + 'px'; });
});</script>`;

// The heights the lab of iframe `i` posted so far, once none came for 1.2 s.
async function postedHeights(page, i = 0) {
  const read = () => page.evaluate((i) => labMessages.filter((m) => m.from === i && m.data.type === 'attentionLab:height').map((m) => m.data.height), i);
  let last = await read();
  for (let t0 = Date.now(); Date.now() - t0 < 15000;) {
    await sleep(1200);
    const now = await read();
    if (now.length === last.length && now.length > 0) return now;
    last = now;
  }
  return last;
}

export function courseAuthorTests() {
  return [
    {
      name: 'auto-height: the height of what is shown; hiding parts lowers it, showing them again restores it; the iframe at that height posts nothing more (no loop); the phone layout its own',
      async run(t) {
        const site = await courseSite(t, { 'index.html': coursePage(t.base + 'index.html', { width: 1200, height: 500, extra: RESIZE }) });
        await t.page.goto(site, { waitUntil: 'load' });
        const [{ frame, el }] = await labFrames(t.page, 1);
        const ask = (state) => t.page.evaluate((state) => askLab(0, { type: 'attentionLab:setState', state }), state);
        const shown = async () => (await postedHeights(t.page)).at(-1);
        const full = await shown();
        assert(full > 600 && full < 1200, `the default lab at 1 200 px wants ${full} px`);
        // No loop: the iframe now has that height, the lab drew at it and wants the same.
        const count = (await postedHeights(t.page)).length;
        await frame.evaluate(() => attentionLab.setState({ temperature: 2 }));
        await sleep(1500);
        assertEq((await postedHeights(t.page)).length, count, 'height messages after the iframe took the height and the lab drew again');
        assertEq(Math.round((await el.boundingBox()).height), full, 'the iframe\'s height');
        // Fewer parts, a smaller height; the same parts again, the same height.
        await ask({ hide: 'settings,training,normalization' });
        const fewer = await shown();
        assert(fewer < full - 20, `hiding settings, training and normalization: ${full} -> ${fewer} px`);
        await ask({ hide: 'settings,training,normalization,steps,information,whatif' });
        const least = await shown();
        assert(least < fewer - 150, `hiding the steps' tabs too: ${fewer} -> ${least} px`);
        await ask({ hide: '' });
        assert(Math.abs((await shown()) - full) <= 4, `everything shown again: ${full} px expected`);
        t.note(`laptop (1 200 px): ${full} px; without settings, training, normalization ${fewer}; without the steps' tabs too ${least}`);
        // A phone (390 px): its tabbed layout, and the lesson card above it.
        const phone = await courseSite(t, { 'index.html': coursePage(t.base + 'index.html', { width: 390, height: 500, extra: RESIZE }) });
        await t.page.goto(phone, { waitUntil: 'load' });
        await labFrames(t.page, 1);
        const plain = await shown();
        await ask({ lesson: 1 });
        const lesson = await shown();
        assert(plain > 500 && lesson > plain + 150, `a phone: ${plain} px, with the lesson card ${lesson} px`);
        t.note(`phone (390 px): ${plain} px, with the lesson ${lesson} px`);
        assertClean(t);
      },
    },
    {
      name: 'postMessage: every request of the docs\' table is answered within a second from a cross-origin parent; an unknown type gets an error naming it',
      async run(t) {
        const site = await courseSite(t, { 'index.html': coursePage(t.base + 'index.html', { width: 1200, height: 700 }) });
        await t.page.goto(site, { waitUntil: 'load' });
        await labFrames(t.page, 1);
        await settle(t.page, 300);
        const types = documentedRequests();
        assert(types.length >= 20, `docs/page-api.md lists ${types.length} requests`);
        const answers = await t.page.evaluate(async ({ types, args }) => {
          const out = {};
          // The normalization experiments run once, on the first getNormalization (about 0.6 s on an
          // idle 2-core machine): computed before the timed round, so that a second is the budget
          // for answering, not for that computation on a loaded machine.
          const t0 = performance.now();
          await window.askLab(0, { type: 'attentionLab:getNormalization' }, 20000);
          out.firstNormalizationMs = performance.now() - t0;
          for (const type of [...types, 'getFoo', 'nope']) {
            const t0 = performance.now();
            const full = type === 'nope' ? type : 'attentionLab:' + type;
            const r = await window.askLab(0, Object.assign({ type: full }, args[type] || {}), 5000);
            out[type] = { ms: performance.now() - t0, timeout: !!r.timeout, fromAsked: r.fromAsked, result: r.result };
          }
          return out;
        }, { types, args: ARGUMENTS });
        t.note(`the first getNormalization (the experiments computed): ${answers.firstNormalizationMs.toFixed(0)} ms`);
        for (const type of types) {
          const a = answers[type];
          assert(!a.timeout, `attentionLab:${type}: no answer within 5 s`);
          assert(a.fromAsked, `attentionLab:${type}: answered by another window`);
          assert(a.ms < 1000, `attentionLab:${type}: answered after ${a.ms.toFixed(0)} ms`);
          assert(a.result !== undefined, `attentionLab:${type}: an answer without a result`);
          if (a.result && a.result.ok === false) assert(typeof a.result.error === 'string' && a.result.error.length > 0, `attentionLab:${type}: a refusal without a message: ${short(a.result)}`);
          t.note(`${type}: ${a.ms.toFixed(0)} ms, ${short(a.result, 90)}`);
        }
        // Refusals name the call, and the unknown types are answered with the lab's list.
        assertEq(answers.setLesson.result.ok, false, 'setLesson({id: "x"})');
        const unknown = answers.getFoo.result;
        assert(!answers.getFoo.timeout && unknown.ok === false && unknown.field === 'type', `unknown type: ${short(unknown)}`);
        assert(unknown.error.startsWith('unknown type "attentionLab:getFoo"'), `unknown type's error: ${unknown.error}`);
        const listed = [...unknown.error.matchAll(/"attentionLab:([A-Za-z]+)"/g)].map((m) => m[1]).filter((n) => n !== 'getFoo');
        assertEq(listed.slice().sort(), types.slice().sort(), 'the requests the lab knows = those docs/page-api.md lists');
        assert(!answers.nope.timeout && /unknown type "nope"/.test(answers.nope.result.error), `a type without the prefix: ${short(answers.nope.result)}`);
        // The getters answer what the page API returns.
        assertEq(answers.getBuild.result, 'default', 'getBuild');
        assertEq(answers.getModelStatus.result.load, 'not requested', 'getModelStatus().load');
        assertEq(answers.getLesson.result, null, 'getLesson() before any lesson');
        assertEq(answers.getState.result.temperature, 2, 'getState after setState');
        assertClean(t);
      },
    },
    {
      name: 'a link in model mode, on the What if tab or with an edit loads the full build first and only that one; a plain link only the default build',
      timeout: 180,
      async run(t) {
        const builds = () => t.monitor.requests.map((u) => u.split('?')[0].split('/').pop()).filter((f) => /^index(-model)?\.(js|wasm)$/.test(f)).sort().join(' ');
        const cases = [['index.html#sentence=one%20two', 'index.js index.wasm', 'default'],
                       ['index.html#projection=model&sentence=I%20love%20sushi', 'index-model.js index-model.wasm', 'full'],
                       ['index.html#view=whatif', 'index-model.js index-model.wasm', 'full'],
                       ['index.html#knockoutKeys=1', 'index-model.js index-model.wasm', 'full']];
        for (const [link, want, build] of cases) {
          t.monitor.requests.length = 0;
          await openLab(t, link);
          await settle(t.page, 300);
          if (build === 'full' && /projection=model/.test(link)) {
            await t.page.waitForFunction(() => attentionLab.getModelStatus().load === 'ready', null, { timeout: 120000 });
          }
          t.note(`${link}: ${builds()}`);
          assertEq(builds(), want, `the builds ${link} downloaded`);
          assertEq(await t.page.evaluate(() => attentionLab.getBuild()), build, `getBuild() after ${link}`);
        }
        assertClean(t);
      },
    },
    {
      name: 'docs: the payload table of model-mode.md is the built site\'s within 2 %, and getModelStatus()\'s fields are those documented',
      async run(t) {
        const rows = documentedPayload();
        assertEq(rows.length, 3, 'rows of the payload table');
        const site = t.opts.site;
        const manifest = fs.readFileSync(path.join(site, 'model', 'MANIFEST.sha256'), 'utf8').split('\n').filter((l) => l.length > 66).map((l) => 'model/' + l.slice(66).trim());
        const groups = [['index.html', 'lab.css', 'lab.js', 'index.js', 'index.wasm'], ['index-model.js', 'index-model.wasm'], ['model/MANIFEST.sha256', ...manifest]];
        rows.forEach((row, i) => {
          let raw = 0, gz = 0;
          for (const f of groups[i]) {
            const data = fs.readFileSync(path.join(site, f));
            raw += data.length;
            gz += zlib.gzipSync(data, { level: 9 }).length;
          }
          t.note(`${row.title}: documented ${(row.raw / 1024).toFixed(1)} / ${(row.gz / 1024).toFixed(1)} KB, measured ${(raw / 1024).toFixed(1)} / ${(gz / 1024).toFixed(1)} KB`);
          for (const [doc, got, what] of [[row.raw, raw, 'as served'], [row.gz, gz, 'gzipped']]) {
            assert(Math.abs(doc - got) <= 0.02 * got, `docs/model-mode.md says ${row.title} is ${(doc / 1024).toFixed(1)} KB ${what}, the site's is ${(got / 1024).toFixed(1)} KB: run node scripts/doc_sizes.mjs`);
          }
        });
        const text = fs.readFileSync(path.join(DOCS, 'model-mode.md'), 'utf8');
        const fields = text.split('<!-- getModelStatus fields: begin')[1].split('<!-- getModelStatus fields: end')[0];
        const documented = [...fields.matchAll(/^\| `([A-Za-z]+)` \|/gm)].map((m) => m[1]).sort();
        await openLab(t, 'index.html');
        const keys = await t.page.evaluate(() => Object.keys(attentionLab.getModelStatus()).sort());
        assertEq(keys, documented, 'getModelStatus() fields = docs/model-mode.md');
        assertClean(t);
      },
    },
  ];
}
