// The page itself: it loads clean, draws, opens on the seed's example, answers setState and
// getTrace, and getTrace equals the native attnlab bit for bit.
import fs from 'node:fs';
import { assert, assertEq, checkTrace, compareJSON, short } from '../lib/assert.mjs';
import { assertClean, assertNonBlank, canvasStats, openLab, SEED, settle } from '../lib/page.mjs';
import { runNative } from '../lib/native.mjs';


export const pageTests = [
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
];
