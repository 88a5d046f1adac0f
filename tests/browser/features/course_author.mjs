// Browser tests: what a course author meets (issue 42). Every request of the page API reaches a
// lab in a cross-origin iframe by postMessage and is answered, the unknown ones with an error
// naming them; the list of requests in docs/page-api.md is the lab's. Run by run.mjs.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assert, assertEq, short } from '../lib/assert.mjs';
import { assertClean, settle } from '../lib/page.mjs';
import { coursePage, courseSite, labFrames } from '../lib/course.mjs';

const DOCS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs');

// The request types of docs/page-api.md's table (between its begin and end markers).
function documentedRequests() {
  const text = fs.readFileSync(path.join(DOCS, 'page-api.md'), 'utf8');
  const table = text.split('<!-- postMessage requests: begin')[1].split('<!-- postMessage requests: end')[0];
  return [...table.matchAll(/^\| `attentionLab:([A-Za-z]+)` \|/gm)].map((m) => m[1]);
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

export function courseAuthorTests() {
  return [
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
          for (const type of [...types, 'getFoo', 'nope']) {
            const t0 = performance.now();
            const full = type === 'nope' ? type : 'attentionLab:' + type;
            const r = await window.askLab(0, Object.assign({ type: full }, args[type] || {}), 5000);
            out[type] = { ms: performance.now() - t0, timeout: !!r.timeout, fromAsked: r.fromAsked, result: r.result };
          }
          return out;
        }, { types, args: ARGUMENTS });
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
  ];
}
