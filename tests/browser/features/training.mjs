// The Training tab: the page API teaching «люблю» to attend to «суши», compare runs, ▶ Play and
// ▮▮ Pause, a diverging run, the page against the native attnlab step by step, links.
import fs from 'node:fs';
import path from 'node:path';
import { assert, assertEq, short, TestFailure } from '../lib/assert.mjs';
import { decodePNG, imageStats } from '../lib/png.mjs';
import { assertClean, assertNonBlank, canvasStats, openLab, panelsDrawn, pixelsDiffer, PLAY_BUTTON, RUN_STEPS_BUTTON, settle, VERB_OBJECT_STEPS } from '../lib/page.mjs';
import { runNativeText } from '../lib/native.mjs';


export const trainingTests = [
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
];
