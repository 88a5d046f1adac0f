// Browser tests: lessons as documents (issue 24, docs/lessons.md). An authored two-step lesson
// posted into the lab inside a cross-origin iframe sets its states, shows its texts in both
// languages and sends answer events (with the right `correct`) and the summary to the course
// page; a broken document is refused with its path and changes nothing; #lessonUrl loads a file
// of the site and refuses any other address; the built-in lesson is fetched from its file only
// when needed, and its states give the same trace on two fresh loads. Run by run.mjs.
import fs from 'node:fs';
import path from 'node:path';
import { assert, assertEq, short } from '../lib/assert.mjs';
import { decodePNG, imageStats } from '../lib/png.mjs';
import { assertClean, assertNonBlank, openLab, settle, sleep } from '../lib/page.mjs';
import { startServer } from '../lib/server.mjs';

export function authoredLessonTests() {

  const twoSteps = (site) => JSON.parse(fs.readFileSync(path.join(site, 'lessons', 'two-steps.json'), 'utf8'));

  // The course page on another origin (localhost vs the lab's 127.0.0.1): the lab in an iframe,
  // every message it posts kept, askLab() for request/reply.
  async function coursePage(t, labUrl, width, height) {
    const dir = path.join(t.tmp, 'course-lesson');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'index.html'), `<!doctype html><html><head><meta charset="utf-8"><title>Course</title>
<style>body{margin:0}</style></head><body>
<iframe id="lab" src="${labUrl}" title="Attention Lab" style="width:${width}px;height:${height}px;border:0;display:block"></iframe>
<script>
window.labMessages = [];
addEventListener('message', (ev) => { if (ev.source === document.getElementById('lab').contentWindow) window.labMessages.push(ev.data); });
window.askLab = (msg) => new Promise((resolve) => {
  const id = 'q' + Math.random();
  const onMsg = (ev) => {
    if (ev.data && ev.data.type === 'attentionLab:result' && ev.data.id === id) { removeEventListener('message', onMsg); resolve(ev.data.result); }
  };
  addEventListener('message', onMsg);
  document.getElementById('lab').contentWindow.postMessage(Object.assign({ id }, msg), '*');
  setTimeout(() => { removeEventListener('message', onMsg); resolve({ timeout: true }); }, 15000);
});
</script></body></html>`);
    const server = await startServer(dir);
    t.onCleanup(() => server.close());
    const base = `http://localhost:${server.address().port}/`;
    t.allowOrigin(new URL(base).origin);
    await t.page.goto(base + 'index.html', { waitUntil: 'load' });
    let frame = null;
    for (let i = 0; i < 300 && !frame; i++) {
      frame = t.page.frames().find((f) => /\/index\.html/.test(f.url()) && f !== t.page.mainFrame());
      if (!frame) await sleep(100);
    }
    assert(frame, 'the lab iframe did not appear');
    await frame.waitForFunction(() => !!window.attentionLab, null, { timeout: 30000 });
    assertEq(await frame.evaluate(() => attentionLab.ready.then(() => 'ready', (e) => 'rejected: ' + e.message)), 'ready', 'the lab in the iframe');
    return frame;
  }

  const fields = (e) => [e.type, e.step, e.choice, e.correct, e.lessonId];
  const ask = (t, msg) => t.page.evaluate((m) => window.askLab(m), msg);
  const messages = (t, type) => t.page.evaluate((ty) => window.labMessages.filter((m) => m && m.type === ty), type);
  async function shot(t, locator, name) {
    const png = await locator.screenshot({ type: 'png' });
    if (t.opts.shots) fs.writeFileSync(path.join(t.opts.shots, name), png);
    assertNonBlank(imageStats(decodePNG(png)), name);
  }

  return [
    {
      name: 'authored lesson: posted into a cross-origin iframe, its states set, texts in both languages, answer events and the summary, a broken one refused',
      context: { viewport: { width: 1300, height: 820 } },
      timeout: 240,
      async run(t) {
        const doc = twoSteps(t.opts.site);
        const frame = await coursePage(t, t.base + 'index.html#lang=en', 1280, 800);
        const loaded = await ask(t, { type: 'attentionLab:setLesson', lesson: doc });
        assert(loaded.ok === true && loaded.lessonId === 'two-steps' && loaded.steps === 2, `setLesson: ${short(loaded)}`);
        let s = await frame.evaluate(() => attentionLab.getState());
        assertEq([s.lessonId, s.lesson, s.predictions, s.projection, s.sentence, s.query], ['two-steps', 1, '--', 'identity', 'я люблю суши', 1],
                 'step 1 opened with its state');
        const back = await frame.evaluate(() => attentionLab.getLesson());
        assertEq([back.steps[0].title.en, back.steps[0].title.ru], ['Identity projections', 'Тождественные проекции'], 'getLesson() gives the document');
        assert((await frame.evaluate(() => document.getElementById('canvas').getAttribute('data-panels'))).split(' ').includes('lesson'),
               'the lesson panel is not drawn');
        await settle(frame);
        await shot(t, t.page.locator('#lab'), 'authored-lesson-en-1-laptop.png');

        // A wrong answer from the course page: the event says so.
        const a1 = await ask(t, { type: 'attentionLab:answerLesson', choice: 0 });
        assert(a1.ok === true && a1.state.predictions === 'a-', `answerLesson(0): ${short(a1)}`);
        await sleep(300);
        let answers = await messages(t, 'attentionLab:answer');
        assertEq(answers.map(fields), [['attentionLab:answer', 1, 0, false, 'two-steps']], 'the answer event');
        // Step 2 in Russian, its state over the lab's defaults; the right answer with the keyboard
        // of the page API (the lab's own on('answer') hears it too).
        await frame.evaluate(() => { window.heard = []; attentionLab.on('answer', (e) => window.heard.push(e)); attentionLab.on('lessonDone', (e) => window.heard.push(e)); });
        const s2 = await ask(t, { type: 'attentionLab:setState', state: { lesson: 2, lang: 'ru' } });
        assert(s2.ok && s2.state.projection === 'random' && s2.state.hide === 'training' && s2.state.lang === 'ru', `step 2: ${short(s2)}`);
        await settle(t.page);
        await shot(t, t.page.locator('#lab'), 'authored-lesson-ru-2-laptop.png');
        const a2 = await frame.evaluate(() => attentionLab.answerLesson(1));
        assert(a2.ok && a2.state.predictions === 'ab', `answerLesson(1): ${short(a2)}`);
        await sleep(300);
        answers = await messages(t, 'attentionLab:answer');
        assertEq(answers.length, 2, 'two answer events');
        assertEq([answers[1].step, answers[1].choice, answers[1].correct], [2, 1, true], 'the second answer event');
        const done = await messages(t, 'attentionLab:lessonDone');
        assertEq(done.map((d) => [d.type, d.lessonId, d.total, d.answered, d.correct, d.answers.map((x) => [x.step, x.choice, x.correct])]),
                 [['attentionLab:lessonDone', 'two-steps', 2, 2, 1, [[1, 0, false], [2, 1, true]]]], 'the summary');
        const heard = await frame.evaluate(() => window.heard.map((e) => e.type));
        assertEq(heard, ['attentionLab:answer', 'attentionLab:lessonDone'], "on('answer') and on('lessonDone') in the lab's page");
        const progress = await ask(t, { type: 'attentionLab:getLessonProgress' });
        assertEq([progress.total, progress.answered, progress.correct], [2, 2, 1], 'getLessonProgress by postMessage');
        await settle(t.page);
        await shot(t, t.page.locator('#lab'), 'authored-lesson-ru-2-answer-laptop.png');

        // A broken document: refused with its path; the lab and the lesson before it stay.
        const before = await frame.evaluate(() => JSON.stringify([attentionLab.getState(), attentionLab.getTrace()]));
        const broken = JSON.parse(JSON.stringify(doc));
        broken.id = 'broken';
        broken.steps[1].question.choices = [{ en: 'only one' }];
        const refused = await ask(t, { type: 'attentionLab:setLesson', lesson: broken });
        assertEq([refused.ok, refused.field, refused.error],
                 [false, 'steps[1].question.choices', 'steps[1].question.choices: expected an array of 2 to 6 choices, got 1 choice'], 'the broken lesson');
        const notJson = await frame.evaluate(() => attentionLab.setLesson('{"format": '));
        assertEq([notJson.ok, notJson.field], [false, 'lesson'], 'text that is not JSON');
        assertEq(await frame.evaluate(() => JSON.stringify([attentionLab.getState(), attentionLab.getTrace()])), before, 'the lab after the refusals');
        const works = await frame.evaluate(() => attentionLab.setState({ temperature: 2 }));
        assert(works.ok && works.state.lessonId === 'two-steps', `the lab keeps working: ${short(works)}`);
        assertClean(t);
      },
    },
    {
      name: 'authored lesson: #lessonUrl loads a file of the site (phone, Russian); another address is refused, the lab still ready',
      context: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 },
      timeout: 120,
      async run(t) {
        await openLab(t, 'index.html#lessonUrl=lessons%2Ftwo-steps.json&lang=ru');
        let s = await t.page.evaluate(() => attentionLab.getState());
        assertEq([s.lessonId, s.lesson, s.predictions, s.lang], ['two-steps', 1, '--', 'ru'], '#lessonUrl opened step 1');
        assert((await t.page.evaluate(() => attentionLab.getLink())).includes('#lessonUrl=lessons/two-steps.json&'), 'the link keeps lessonUrl');
        await settle(t.page);
        await shot(t, t.page.locator('#canvas'), 'authored-lesson-ru-1-phone.png');
        await t.page.evaluate(() => attentionLab.setState({ lang: 'en', lesson: 2 }));
        await settle(t.page);
        await shot(t, t.page.locator('#canvas'), 'authored-lesson-en-2-phone.png');
        for (const bad of ['https%3A%2F%2Fevil.example%2Fx.json', '%2F%2Fevil.example%2Fx.json', '..%2Findex.json', 'lessons%2Fmissing.json']) {
          t.monitor.warnings.length = 0;
          await openLab(t, `index.html#lessonUrl=${bad}&temperature=2`);
          s = await t.page.evaluate(() => attentionLab.getState());
          assertEq([s.lessonId, s.temperature], ['seed', 2], `#lessonUrl=${bad}: the rest of the link applies`);
          assert(t.monitor.warnings.some((w) => /lessonUrl/.test(w)), `#lessonUrl=${bad}: no warning naming lessonUrl: ${t.monitor.warnings.join(' | ')}`);
        }
        const requested = t.monitor.requests.filter((u) => /evil|missing|index\.json/.test(u));
        assert(requested.every((u) => /lessons\/missing\.json$/.test(u)), `requests for refused addresses: ${requested.join(' ')}`);
        // The 404 asked for (and the browser's console line about it).
        t.monitor.httpErrors = t.monitor.httpErrors.filter((e) => !/missing\.json/.test(e));
        t.monitor.consoleErrors = t.monitor.consoleErrors.filter((e) => !/404/.test(e));
        assertClean(t);
      },
    },
    {
      name: "authored lesson: a step in model mode moves the lab to the model's build, the lesson and its answers go along",
      timeout: 180,
      async run(t) {
        await openLab(t, 'index.html');
        const doc = twoSteps(t.opts.site);
        doc.id = 'to-the-model';
        doc.steps[1].state = { projection: 'model', layer: 0, head: 1 };
        const r = await t.page.evaluate((d) => attentionLab.setLesson(d), doc);
        assert(r.ok, `setLesson: ${short(r)}`);
        assert((await t.page.evaluate(() => attentionLab.answerLesson(1))).ok, 'answerLesson(1)');
        await t.page.evaluate(() => attentionLab.setState({ lesson: 2 }));
        const t0 = Date.now();
        let st = null;
        while (Date.now() - t0 < 120000) {
          st = await t.page.evaluate(() => attentionLab.getModelStatus());
          if (st.load === 'ready' || st.load === 'failed') break;
          await sleep(300);
        }
        assertEq(st && st.load, 'ready', `the model: ${short(st)}`);
        await settle(t.page, 500);
        const s = await t.page.evaluate(() => attentionLab.getState());
        assertEq([s.lessonId, s.lesson, s.predictions, s.projection], ['to-the-model', 2, 'b-', 'model'], 'the state in the model build');
        assertEq((await t.page.evaluate(() => attentionLab.getLesson())).id, 'to-the-model', 'the lesson in the model build');
        const a = await t.page.evaluate(() => attentionLab.answerLesson(1));
        assert(a.ok && a.state.predictions === 'bb', `answering in the model build: ${short(a)}`);
        assertEq((await t.page.evaluate(() => attentionLab.getLessonProgress())).correct, 2, 'the progress in the model build');
        assertClean(t);
      },
    },
    {
      name: 'built-in lesson: fetched from lessons/seed.json only when needed; its states give the same trace on two fresh loads',
      timeout: 120,
      async run(t) {
        const traces = [];
        for (let load = 0; load < 2; load++) {
          const from = t.monitor.requests.length;
          const since = () => t.monitor.requests.slice(from);
          await openLab(t, 'index.html');
          await settle(t.page, 300);
          assert(!since().some((u) => /lessons\//.test(u)), 'the lesson was fetched before it was needed');
          assertEq(await t.page.evaluate(() => attentionLab.getLesson()), null, 'getLesson() before the lesson is needed');
          // setState({lesson}) with no document yet: answered at once (a synchronous request).
          const r = await t.page.evaluate(() => attentionLab.setState({ lesson: 2, predictions: 'ba-------' }));
          assert(r.ok && r.state.lesson === 2 && r.state.sentence === 'я люблю суши суши', `setState({lesson: 2}): ${short(r)}`);
          assert(since().some((u) => /\/lessons\/seed\.json$/.test(u)), 'lessons/seed.json was not requested');
          const three = await t.page.evaluate(() => { attentionLab.setState({ lesson: 3, predictions: 'bac------' }); return attentionLab.getTrace(); });
          traces.push(JSON.stringify([await t.page.evaluate(() => attentionLab.getTrace()), three]));
        }
        assert(traces[0] === traces[1], 'two fresh loads of steps 2 and 3 give different traces');
        assertClean(t);
      },
    },
  ];
}
