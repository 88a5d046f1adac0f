// The Normalization tab: the experiments' shape and curves, and both learning tabs on a phone.
import fs from 'node:fs';
import path from 'node:path';
import { assert, assertEq, short, TestFailure } from '../lib/assert.mjs';
import { decodePNG, imageStats } from '../lib/png.mjs';
import { assertClean, assertNonBlank, canvasStats, openLab, panelsDrawn, pixelsDiffer, RUN_CURVES_BUTTON, settle } from '../lib/page.mjs';


export const normalizationTests = [
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
];
