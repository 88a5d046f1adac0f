// embed-example.html: the lab in an iframe, driven with postMessage.
import path from 'node:path';
import { assert, assertEq, short } from '../lib/assert.mjs';
import { assertClean, settle } from '../lib/page.mjs';


export const embedTests = [
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
];
