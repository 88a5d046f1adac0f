// The Information panel: the seed's two scenarios (nothing lost at d = 8, a collision at d_v = 1),
// a causal mask and sigmoid.
import { assert, assertEq, short } from '../lib/assert.mjs';
import { assertClean, assertNonBlank, canvasStats, openLab, settle } from '../lib/page.mjs';


export const informationTests = [
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
];
