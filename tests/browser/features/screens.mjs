// Screen sizes: a phone (390x844), and the canvas's drawing buffer following the window and
// devicePixelRatio.
import { assert, assertEq, checkTrace } from '../lib/assert.mjs';
import { assertClean, assertNonBlank, canvasStats, openLab, settle } from '../lib/page.mjs';


export const screensTests = [
  {
    name: 'phone 390x844: ready and canvas not blank',
    context: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
    async run(t) {
      await openLab(t);
      await settle(t.page, 1500);
      const s = await canvasStats(t, 'phone.png');
      t.note(`phone canvas ${s.width}x${s.height}: ${s.distinct} colours, ${(100 * s.nonBackground).toFixed(1)}% non-background`);
      assertNonBlank(s, 'phone');
      await t.page.touchscreen.tap(195, 300);
      await settle(t.page, 300);
      const r = await t.page.evaluate(() => ({ w: innerWidth, h: innerHeight, rect: document.getElementById('canvas').getBoundingClientRect().toJSON(), trace: attentionLab.getTrace() }));
      assertEq([r.rect.width, r.rect.height], [r.w, r.h], 'canvas size vs window on the phone');
      checkTrace(r.trace, 'phone trace');
      assertClean(t);
    },
  },
  {
    name: 'canvas drawing buffer follows window size and devicePixelRatio',
    context: { viewport: { width: 1000, height: 700 }, deviceScaleFactor: 1.5 },
    async run(t) {
      await openLab(t);
      await settle(t.page, 500);
      const size = () => t.page.evaluate(() => { const c = document.getElementById('canvas'); return { w: c.width, h: c.height, cw: c.clientWidth, ch: c.clientHeight, dpr: devicePixelRatio }; });
      const near = (s) => Math.abs(s.w - s.cw * s.dpr) <= 2 && Math.abs(s.h - s.ch * s.dpr) <= 2;
      let s = await size();
      assert(near(s), `drawing buffer ${s.w}x${s.h} for CSS ${s.cw}x${s.ch} at devicePixelRatio ${s.dpr}`);
      await t.page.setViewportSize({ width: 700, height: 900 });
      await settle(t.page, 800);
      s = await size();
      assertEq([s.cw, s.ch], [700, 900], 'canvas CSS size after resize');
      assert(near(s), `after resize: drawing buffer ${s.w}x${s.h} for CSS ${s.cw}x${s.ch} at devicePixelRatio ${s.dpr}`);
      assertNonBlank(await canvasStats(t), 'after resize');
      assertClean(t);
    },
  },
];
