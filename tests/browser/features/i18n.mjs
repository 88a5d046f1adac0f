// Russian and English: a Russian browser gets Russian, and every view in Russian on a laptop and a
// phone (screenshots ru-*.png).
import { assert, assertEq, short } from '../lib/assert.mjs';
import { assertClean, assertNonBlank, canvasStats, LAPTOP, openLab, settle } from '../lib/page.mjs';


export const i18nTests = [
  {
    name: 'Russian browser without lang in the link gets lang "ru"',
    context: { locale: 'ru-RU' },
    async run(t) {
      await openLab(t, 'index.html#query=0');
      const s = await t.page.evaluate(() => attentionLab.getState());
      assertEq([s.lang, s.query], ['ru', 0], 'lang/query');
      assertClean(t);
    },
  },
  {
    name: 'Russian on every view at laptop 1280x800 and phone 390x844 (screenshots ru-*.png to look at)',
    timeout: 300,
    async run(t) {
      await openLab(t);
      // The runs and the curves first, so that their tabs show numbers, labels and messages.
      const prep = await t.page.evaluate(() => {
        const set = attentionLab.setState({ lang: 'ru', train: { compare: 'scaled' } });
        const trained = attentionLab.train(150);
        const curves = attentionLab.runNormalization({ seeds: 2, steps: 20 });
        return { set, trained, curves };
      });
      assert(prep.set.ok && prep.trained.ok && prep.curves.ok, `preparing: ${short(prep, 300)}`);
      await t.page.waitForFunction(() => { const c = attentionLab.getNormalization().curves; return c && c.done; }, null, { timeout: 120000, polling: 500 });
      // Each view, then a few states whose Russian text is easy to miss: the causal mask's
      // «замаскирован», a refused training example, a diverged run.
      const states = [
        ...['sentence', 'steps', 'weights', 'vectors', 'information', 'training', 'normalization'].map((v) => [v, { view: v }]),
        ['steps-causal', { view: 'steps', causal: true, sentence: 'я очень люблю суши и чай', query: 2 }],
        ['information-causal', { view: 'information', causal: true, dV: 2 }],
      ];
      for (const [size, viewport] of [['laptop', LAPTOP], ['phone', { width: 390, height: 844 }]]) {
        await t.page.setViewportSize(viewport);
        await t.page.evaluate(() => attentionLab.setState({ causal: false, sentence: 'я люблю суши', query: 1, dV: 3 }));
        for (const [name, patch] of states) {
          const r = await t.page.evaluate((p) => attentionLab.setState({ lang: 'ru', ...p }), patch);
          assert(r.ok, `${size} ${name}: setState ${short(r)}`);
          await settle(t.page, 600);
          assertNonBlank(await canvasStats(t, `ru-${size}-${name}.png`), `${size} ${name} in Russian`);
        }
        const refused = await t.page.evaluate(() => attentionLab.setState({ view: 'training', train: { example: 'я люблю пиццу' } }));
        assertEq([refused.ok, refused.field], [false, 'train.example'], `${size}: an unknown word in the example`);
        await settle(t.page, 900);
        await canvasStats(t, `ru-${size}-training-refused.png`);
      }
      // A diverged run, in Russian (laptop and phone).
      const d = await t.page.evaluate(() => {
        attentionLab.setState({ view: 'training', train: { compare: '', normalizer: 'none', scaled: false, optimizer: 'sgd', lr: 10 } });
        return attentionLab.train(400);
      });
      assert(d.ok && d.diverged, `the run did not diverge: ${short(d, 200)}`);
      for (const [size, viewport] of [['laptop', LAPTOP], ['phone', { width: 390, height: 844 }]]) {
        await t.page.setViewportSize(viewport);
        await settle(t.page, 900);
        await canvasStats(t, `ru-${size}-training-diverged.png`);
      }
      assertClean(t);
    },
  },
];
