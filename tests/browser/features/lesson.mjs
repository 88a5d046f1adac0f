// The guided lesson (src/app/lesson): every step on a laptop and a phone, in both languages,
// predicted with the keyboard, the state checked at each question and answer.
import { assert, assertEq, short } from '../lib/assert.mjs';
import { assertClean, assertNonBlank, canvasStats, openLab, panelsDrawn, settle } from '../lib/page.mjs';

// The lesson (src/app/lesson.cpp): per step the right choice (0-based) and the state its question
// and its answer set. The right answers spell "bacacbbbc".
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
  { right: 1, question: (s) => s.view === 'weights' && s.projection === 'model' && s.sentence === 'я люблю суши',
    answer: (s) => s.view === 'prediction' && s.projection === 'model' && s.sentence === 'я люблю суши' },
  { right: 2, question: (s) => s.view === 'steps' && s.sentence === 'я люблю суши',
    answer: (s) => s.view === 'weights' && s.sentence === 'я люблю суши' && s.projection === 'identity' },
];

// Walks the lesson in one language on the laptop: the question's state, a key press for the right
// choice, the answer's state and numbers, a screenshot of both; N to the next step; B and N at the end.
async function walkLessonLaptop(t, lang) {
  if (lang === 'en') await openLab(t, 'index.html#lang=en&lesson=1');
  else {
    const r = await t.page.evaluate(() => attentionLab.setState({ lang: 'ru', lesson: 1, predictions: '---------' }));
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
  assertEq([s.lesson, s.predictions], [8, 'bacacbbbc'], `${lang}: B goes back a step, predictions kept`);
  assert(LESSON[7].answer(s), `${lang}: step 8 after coming back: ${short(s, 300)}`);
  await t.page.keyboard.press('n');
  await settle(t.page, 300);
  s = await t.page.evaluate(() => attentionLab.getState());
  assertEq(s.lesson, 9, `${lang}: N goes forward again`);
}

export const lessonTests = [
  {
    name: 'lesson: every step at 1280x800 in English, then in Russian, predicted with the keyboard, state checked',
    timeout: 420,
    async run(t) {
      await walkLessonLaptop(t, 'en');
      await walkLessonLaptop(t, 'ru');
      // A course page switches the lesson off: the panel goes, the predictions stay in the state.
      const off = await t.page.evaluate(() => attentionLab.setState({ lesson: 0 }));
      assert(off.ok && off.state.lesson === 0 && off.state.predictions === 'bacacbbbc', `lesson 0: ${short(off)}`);
      await settle(t.page, 400);
      assert(!(await panelsDrawn(t)).split(' ').includes('lesson'), `lesson 0 still draws the lesson: ${await panelsDrawn(t)}`);
      const bad = await t.page.evaluate(() => attentionLab.setState({ lesson: 10 }));
      assertEq([bad.ok, bad.field, bad.error], [false, 'lesson', 'lesson: expected an integer from 0 to 9, got 10'], 'lesson 10 refused');
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
          const r = await t.page.evaluate(([lang, k]) => attentionLab.setState({ lang, lesson: k, predictions: 'bacacbbbc' }), [lang, k]);
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
