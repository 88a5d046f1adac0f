// Browser tests of issue 11, items 5 and 9: exports (PNG at 2x, SVG, CSV, JSON) through the page
// API and through the export menus, in English and Russian; the screen-reader table of the
// weights; prefers-reduced-motion. Run by run.mjs.
import fs from 'node:fs';
import path from 'node:path';
import { assert, assertEq, short } from '../lib/assert.mjs';
import { decodePNG } from '../lib/png.mjs';
import { assertClean, openLab, settle, sleep } from '../lib/page.mjs';

export function exportTests() {

  // The exportable figures on screen and the export menus' rectangles (canvas data-figures,
  // written by src/platform/export.cpp after every drawn frame).
  async function figures(t) {
    const text = await t.page.evaluate(() => document.getElementById('canvas').getAttribute('data-figures'));
    assert(text, 'the canvas has no data-figures attribute');
    return JSON.parse(text);
  }

  // attentionLab.export in the page; the Blob comes back as base64 with the rest of the reply.
  async function exportInPage(t, options) {
    return t.page.evaluate(async (o) => {
      const r = await attentionLab.export(o);
      if (!r.ok) return r;
      const buf = new Uint8Array(await r.blob.arrayBuffer());
      let bin = '';
      for (let i = 0; i < buf.length; i += 0x8000) bin += String.fromCharCode.apply(null, buf.subarray(i, i + 0x8000));
      return { ok: true, filename: r.filename, type: r.type, blobType: r.blob.type, width: r.width, height: r.height, base64: btoa(bin) };
    }, options);
  }

  async function parseSvg(t, text) {
    return t.page.evaluate((s) => {
      const doc = new DOMParser().parseFromString(s, 'image/svg+xml');
      const err = doc.getElementsByTagName('parsererror')[0];
      return { error: err ? err.textContent.slice(0, 200) : null, root: doc.documentElement.nodeName,
               texts: [...doc.getElementsByTagName('text')].map((e) => e.textContent),
               rects: doc.getElementsByTagName('rect').length };
    }, text);
  }

  // A PNG export against the screen: 2x the figure's rectangle, and (scaled down) the same picture.
  async function checkPng(t, bytes, figure, what) {
    const sig = [137, 80, 78, 71, 13, 10, 26, 10];
    assert(sig.every((b, i) => bytes[i] === b), `${what}: not a PNG signature`);
    const png = decodePNG(bytes);
    const [x0, y0, x1, y1] = figure.rect;
    assertEq(png.width, Math.round(2 * (x1 - x0)), `${what}: PNG width (2 x ${x1 - x0})`);
    assertEq(png.height, Math.round(2 * (y1 - y0)), `${what}: PNG height (2 x ${y1 - y0})`);
    const shot = decodePNG(await t.page.locator('#canvas').screenshot({ type: 'png' }));
    let diff = 0, n = 0;
    for (let y = Math.ceil(y0) + 1; y < Math.floor(y1) - 1; y += 2)
      for (let x = Math.ceil(x0) + 1; x < Math.floor(x1) - 1; x += 2) {
        const a = (y * shot.width + x) * 4;
        const px = Math.min(png.width - 1, Math.round((x - x0) * 2)), py = Math.min(png.height - 1, Math.round((y - y0) * 2));
        const b = (py * png.width + px) * 4;
        diff += Math.abs(shot.data[a] - png.data[b]) + Math.abs(shot.data[a + 1] - png.data[b + 1]) + Math.abs(shot.data[a + 2] - png.data[b + 2]);
        n++;
      }
    const mean = diff / (3 * n);
    t.note(`${what}: ${png.width}x${png.height}, mean |screen - export| ${mean.toFixed(1)} per channel over ${n} pixels`);
    assert(mean < 12, `${what}: the PNG does not look like the screen (mean difference ${mean.toFixed(1)})`);
    return png;
  }

  function csvRows(text) {
    assert(text.charCodeAt(0) === 0xFEFF, 'the CSV has no byte-order mark');
    const lines = text.slice(1).split('\r\n');
    assertEq(lines.pop(), '', 'the CSV ends with CRLF');
    // No token of these sentences holds a comma or a quote: a plain split is enough here.
    return lines.map((l) => l.split(','));
  }

  async function checkNumbers(t, lang) {
    const trace = await t.page.evaluate(() => attentionLab.getTrace());
    const n = trace.tokens.length;
    const csv = await exportInPage(t, { what: 'weights', format: 'csv' });
    assert(csv.ok, `${lang} csv: ${short(csv)}`);
    assertEq(csv.blobType, 'text/csv;charset=utf-8', `${lang} csv type`);
    const text = Buffer.from(csv.base64, 'base64').toString('utf8');
    const rows = csvRows(text);
    assertEq(rows.length, n + 1, `${lang} csv: lines (N + 1)`);
    assertEq(rows[0].slice(1).join('|'), trace.tokens.join('|'), `${lang} csv header`);
    assertEq(rows[0][0], lang === 'ru' ? 'запрос \\ ключ' : 'query \\ key', `${lang} csv corner`);
    for (let i = 0; i < n; i++) {
      assertEq(rows[i + 1][0], trace.tokens[i], `${lang} csv row ${i} token`);
      for (let j = 0; j < n; j++) assertEq(Number(rows[i + 1][j + 1]), trace.weights[i][j], `${lang} csv weight (${i}, ${j})`);
    }
    assertEq(csv.filename, lang === 'ru' ? 'attention-weights-ya-lyublyu-sushi.csv' : 'attention-weights-i-love-sushi.csv', `${lang} csv name`);
    const json = await exportInPage(t, { what: 'weights', format: 'json' });
    assert(json.ok, `${lang} json: ${short(json)}`);
    assertEq(JSON.stringify(JSON.parse(Buffer.from(json.base64, 'base64').toString('utf8'))), JSON.stringify(trace), `${lang} json = getTrace()`);
    const svg = await exportInPage(t, { what: 'weights', format: 'svg' });
    assert(svg.ok, `${lang} svg: ${short(svg)}`);
    const svgText = Buffer.from(svg.base64, 'base64').toString('utf8');
    const parsed = await parseSvg(t, svgText);
    assert(!parsed.error, `${lang} weights svg does not parse: ${parsed.error}`);
    assertEq(parsed.root, 'svg', `${lang} svg root`);
    assert(parsed.rects >= n * n, `${lang} svg: ${parsed.rects} rects for ${n * n} cells`);
    for (const tok of trace.tokens) assert(parsed.texts.includes(tok), `${lang} svg: no text «${tok}»`);
    return { svgText, text };
  }

  return [
    {
      name: 'export: weights (PNG 2x, SVG, CSV, JSON) and vectors through the page API, EN and RU',
      run: async (t) => {
        await openLab(t, 'index.html#sentence=I%20love%20sushi&query=1&lang=en&view=weights');
        await settle(t.page, 600);
        for (const lang of ['en', 'ru']) {
          if (lang === 'ru') {
            const r = await t.page.evaluate(() => attentionLab.setState({ lang: 'ru', sentence: 'я люблю суши' }));
            assert(r.ok, short(r));
            await settle(t.page, 600);
          }
          const out = await checkNumbers(t, lang);
          if (t.opts.shots) {
            fs.writeFileSync(path.join(t.opts.shots, `export-weights-${lang}.svg`), out.svgText);
            fs.writeFileSync(path.join(t.opts.shots, `export-weights-${lang}.csv`), out.text);
          }
          const figs = (await figures(t)).figures;
          for (const what of ['weights', 'vectors']) {
            const fig = figs.find((f) => f.id === what);
            assert(fig, `${lang}: no figure ${what} on screen (${short(figs.map((f) => f.id))})`);
            const r = await exportInPage(t, { what, format: 'png' });
            assert(r.ok, `${lang} ${what} png: ${short(r)}`);
            assertEq(r.blobType, 'image/png', `${what} png type`);
            const bytes = Buffer.from(r.base64, 'base64');
            const png = await checkPng(t, bytes, fig, `${lang} ${what} png`);
            assertEq(r.width, png.width, `${what}: reported width`);
            if (t.opts.shots) fs.writeFileSync(path.join(t.opts.shots, `export-${what}-${lang}.png`), bytes);
          }
        }
        // Refusals: the one wording, never a throw.
        const bad = await t.page.evaluate(async () => [await attentionLab.export({ what: 'weights', format: 'gif' }),
                                                       await attentionLab.export({ what: 'nothing', format: 'png' }),
                                                       await attentionLab.export({ what: 'loss', format: 'png' }),
                                                       await attentionLab.export('weights')]);
        assertEq(bad[0].field, 'format', short(bad[0]));
        assertEq(bad[0].error, 'format: expected one of png, svg, csv, json for weights, got "gif"', 'gif refused');
        assertEq(bad[1].field, 'what', short(bad[1]));
        assertEq(bad[2].field, 'what', `loss not on screen: ${short(bad[2])}`);
        assert(/not drawn now/.test(bad[2].error), short(bad[2]));
        assertEq(bad[3].ok, false, short(bad[3]));
        assertClean(t);
      },
    },
    {
      name: 'export: the training and normalization plots as PNG and SVG',
      run: async (t) => {
        await openLab(t, 'index.html#lang=en&view=training');
        await t.page.evaluate(() => attentionLab.train(60));
        await settle(t.page, 600);
        let figs = (await figures(t)).figures;
        for (const what of ['loss', 'accuracy', 'attention', 'grad_norms']) {
          const fig = figs.find((f) => f.id === what);
          assert(fig, `no ${what} plot on screen (${short(figs.map((f) => f.id))})`);
          const png = await exportInPage(t, { what, format: 'png' });
          assert(png.ok, `${what} png: ${short(png)}`);
          await checkPng(t, Buffer.from(png.base64, 'base64'), fig, `${what} png`);
          const svg = await exportInPage(t, { what, format: 'svg' });
          assert(svg.ok, `${what} svg: ${short(svg)}`);
          assertEq(svg.filename, `attention-${what.replace('_', '-')}.svg`, `${what} svg name`);
          const text = Buffer.from(svg.base64, 'base64').toString('utf8');
          const parsed = await parseSvg(t, text);
          assert(!parsed.error, `${what} svg: ${parsed.error}`);
          if (what === 'loss') {
            assert(parsed.texts.includes('step'), `loss svg: no x label (${short(parsed.texts)})`);
            if (t.opts.shots) fs.writeFileSync(path.join(t.opts.shots, 'export-loss.svg'), text);
          }
        }
        // getNormalization() computes the experiments now (else the tab computes them in frames).
        await t.page.evaluate(() => { attentionLab.setState({ view: 'normalization', lang: 'ru' }); attentionLab.getNormalization(); });
        await t.page.waitForFunction(() => /"variance"/.test(document.getElementById('canvas').getAttribute('data-figures') || ''), null, { timeout: 60000 });
        await settle(t.page, 600);
        figs = (await figures(t)).figures;
        const variance = figs.find((f) => f.id === 'variance');
        assert(variance, `no variance plot (${short(figs.map((f) => f.id))})`);
        const svg = await exportInPage(t, { what: 'variance', format: 'svg' });
        assert(svg.ok, short(svg));
        const parsed = await parseSvg(t, Buffer.from(svg.base64, 'base64').toString('utf8'));
        assert(!parsed.error, parsed.error);
        assert(parsed.texts.some((s) => /[а-я]/i.test(s)), `RU variance svg has no Russian text: ${short(parsed.texts)}`);
        if (t.opts.shots) fs.writeFileSync(path.join(t.opts.shots, 'export-variance-ru.svg'), Buffer.from(svg.base64, 'base64'));
        const png = await exportInPage(t, { what: 'variance', format: 'png' });
        assert(png.ok, short(png));
        await checkPng(t, Buffer.from(png.base64, 'base64'), variance, 'variance png');
        assertClean(t);
      },
    },
    {
      name: 'export: the Information panel (bars, simplex) and the training example (heatmaps) as PNG 2x and SVG, EN and RU',
      // Tall enough for the Information panel to show both pictures without scrolling (a PNG is
      // what is on screen; a picture scrolled out of its panel is not).
      context: { viewport: { width: 1280, height: 1700 } },
      run: async (t) => {
        await openLab(t, 'index.html#sentence=I%20love%20sushi&query=2&dV=1&lang=en&view=information');
        await settle(t.page, 600);
        const svgParts = (text) => t.page.evaluate((s) => {
          const doc = new DOMParser().parseFromString(s, 'image/svg+xml');
          const err = doc.getElementsByTagName('parsererror')[0];
          const titleOf = (e) => (e && e.getElementsByTagName('title')[0] ? e.getElementsByTagName('title')[0].textContent : null);
          return { error: err ? err.textContent.slice(0, 200) : null, root: doc.documentElement.nodeName,
                   texts: [...doc.getElementsByTagName('text')].map((e) => e.textContent),
                   bars: [...doc.querySelectorAll('rect.bar')].map((e) => titleOf(e)),
                   cells: [...doc.querySelectorAll('g.head rect')].map((e) => titleOf(e)).filter((x) => x),
                   alpha: titleOf(doc.getElementById('alpha')), corners: doc.querySelectorAll('circle.corner').length };
        }, text);
        for (const lang of ['en', 'ru']) {
          if (lang === 'ru') {
            const r = await t.page.evaluate(() => attentionLab.setState({ lang: 'ru', sentence: 'я люблю суши' }));
            assert(r.ok, short(r));
            await settle(t.page, 600);
          }
          const trace = await t.page.evaluate(() => attentionLab.getTrace());
          const row = trace.weights[2];
          const slug = lang === 'ru' ? 'ya-lyublyu-sushi' : 'i-love-sushi';
          const figs = (await figures(t)).figures;
          for (const what of ['contributions', 'simplex']) {
            const fig = figs.find((f) => f.id === what);
            assert(fig, `${lang}: no figure ${what} on screen (${short(figs.map((f) => f.id))})`);
            const png = await exportInPage(t, { what, format: 'png' });
            assert(png.ok, `${lang} ${what} png: ${short(png)}`);
            assertEq(png.filename, `attention-${what}-${slug}.png`, `${lang} ${what} png name`);
            const bytes = Buffer.from(png.base64, 'base64');
            await checkPng(t, bytes, fig, `${lang} ${what} png`);
            const svg = await exportInPage(t, { what, format: 'svg' });
            assert(svg.ok, `${lang} ${what} svg: ${short(svg)}`);
            assertEq(svg.filename, `attention-${what}-${slug}.svg`, `${lang} ${what} svg name`);
            assertEq(svg.blobType, 'image/svg+xml', `${what} svg type`);
            const text = Buffer.from(svg.base64, 'base64').toString('utf8');
            const p = await svgParts(text);
            assert(!p.error, `${lang} ${what} svg does not parse: ${p.error}`);
            assertEq(p.root, 'svg', `${what} svg root`);
            for (const tok of trace.tokens) assert(p.texts.includes(tok), `${lang} ${what} svg: no text «${tok}»`);
            if (what === 'contributions') {
              // scenario 1's bars carry the query's weights exactly, the panel's 3 decimals beside them
              assertEq(p.bars.length, 2 * trace.tokens.length, 'bars: two scenarios of N');
              for (let j = 0; j < row.length; j++) {
                assertEq(Number(p.bars[j].split(': ').pop()), row[j], `${lang} bar ${j}: the weight`);
                assert(p.texts.includes(row[j].toFixed(3)), `${lang} contributions svg: no ${row[j].toFixed(3)}`);
              }
              assert(p.texts.some((s) => (lang === 'ru' ? /Сценарий 2/ : /Scenario 2/).test(s)), `${lang}: no scenario 2 title`);
            } else {
              assertEq(p.corners, 3, 'simplex corners');
              assertEq(p.alpha, `α = (${row.join(', ')})`, `${lang} simplex: α's weights`);
            }
            if (t.opts.shots) {
              fs.writeFileSync(path.join(t.opts.shots, `export-${what}-${lang}.png`), bytes);
              fs.writeFileSync(path.join(t.opts.shots, `export-${what}-${lang}.svg`), text);
            }
          }
        }
        // No simplex for six keys: the one wording, field `what`.
        let r = await t.page.evaluate(() => attentionLab.setState({ sentence: 'the cat sat on the mat', lang: 'en', dV: 2 }));
        assert(r.ok, short(r));
        await settle(t.page, 400);
        const none = await exportInPage(t, { what: 'simplex', format: 'svg' });
        assertEq(none.ok, false, short(none));
        assertEq(none.field, 'what', short(none));
        assert(/^what: expected a picture the lab draws now, got "simplex"/.test(none.error), short(none));

        // The Training tab's row 2 (the curves) starts below row 1: the example's heatmap, when
        // taller than the backprop table beside it, used to run under the curves.
        r = await t.page.evaluate(() => attentionLab.setState({ view: 'training', lang: 'en' }));
        assert(r.ok, short(r));
        await settle(t.page, 600);
        {
          const figs = (await figures(t)).figures;
          const maps = figs.find((f) => f.id === 'example_weights'), loss = figs.find((f) => f.id === 'loss');
          assert(maps && loss, `the example heatmap and the loss plot on the Training tab: ${short(figs.map((f) => f.id))}`);
          assert(loss.rect[1] >= maps.rect[3], `the loss plot (top ${loss.rect[1]}) begins above the example heatmap's bottom (${maps.rect[3]})`);
        }

        // The Training tab's example heatmaps: 2 heads, runs A and B.
        r = await t.page.evaluate(() => attentionLab.setState({ view: 'training', lang: 'ru', train: { heads: 2, compare: 'scaled' } }));
        assert(r.ok, short(r));
        await t.page.evaluate(() => attentionLab.train(40));
        await settle(t.page, 600);
        const fig = (await figures(t)).figures.find((f) => f.id === 'example_weights');
        assert(fig, 'no example_weights figure on the Training tab');
        const png = await exportInPage(t, { what: 'example_weights', format: 'png' });
        assert(png.ok, `example_weights png: ${short(png)}`);
        assertEq(png.filename, 'attention-example-weights.png', 'example_weights png name');
        const bytes = Buffer.from(png.base64, 'base64');
        await checkPng(t, bytes, fig, 'example_weights png');
        const svg = await exportInPage(t, { what: 'example_weights', format: 'svg' });
        assert(svg.ok, `example_weights svg: ${short(svg)}`);
        const text = Buffer.from(svg.base64, 'base64').toString('utf8');
        const p = await svgParts(text);
        assert(!p.error, `example_weights svg: ${p.error}`);
        const tr = await t.page.evaluate(() => attentionLab.train(0));
        const n = tr.tokens.length;
        assertEq(p.cells.length, 2 * 2 * n * n, 'example svg: runs x heads x N x N cells');
        // run A's head 1, the engine's numbers (getTraining's exampleWeights) in the cells' titles
        for (let i = 0; i < n; i++)
          for (let j = 0; j < n; j++)
            assertEq(Number(p.cells[i * n + j].split(': ').pop()), tr.exampleWeights[0][i][j], `example cell (${i}, ${j})`);
        assert(p.texts.includes('Голова 1 из 0–1'), `RU heads caption: ${short(p.texts)}`);
        if (t.opts.shots) {
          fs.writeFileSync(path.join(t.opts.shots, 'export-example_weights-ru.png'), bytes);
          fs.writeFileSync(path.join(t.opts.shots, 'export-example_weights-ru.svg'), text);
        }
        // Its menu: "↓" beside the title, SVG downloads.
        const box = await t.page.locator('#canvas').boundingBox();
        const button = (await figures(t)).menus.example_weights;
        assert(button, 'no export menu for example_weights');
        await t.page.mouse.click(box.x + (button[0] + button[2]) / 2, box.y + (button[1] + button[3]) / 2);
        await settle(t.page, 300);
        const item = (await figures(t)).menus['example_weights.svg'];
        assert(item, 'the example_weights menu has no svg item');
        if (t.opts.shots) await t.page.screenshot({ path: path.join(t.opts.shots, 'export-menu-example-weights.png') });
        const [download] = await Promise.all([
          t.page.waitForEvent('download', { timeout: 15000 }),
          t.page.mouse.click(box.x + (item[0] + item[2]) / 2, box.y + (item[1] + item[3]) / 2),
        ]);
        assertEq(download.suggestedFilename(), 'attention-example-weights.svg', 'menu file name');
        assertClean(t);
      },
    },
    {
      name: 'export: the menus download valid files (EN and RU)',
      run: async (t) => {
        await openLab(t, 'index.html#sentence=I%20love%20sushi&query=1&lang=en');
        await settle(t.page, 600);
        const box = await t.page.locator('#canvas').boundingBox();
        const seen = [];
        for (const [lang, what, format] of [['en', 'weights', 'png'], ['en', 'weights', 'csv'], ['en', 'vectors', 'png'],
                                            ['ru', 'weights', 'svg'], ['ru', 'weights', 'json'], ['ru', 'weights', 'png']]) {
          if (lang === 'ru' && !seen.includes('ru')) {
            await t.page.evaluate(() => attentionLab.setState({ lang: 'ru', sentence: 'я люблю суши' }));
            await settle(t.page, 600);
            seen.push('ru');
          }
          const menus = (await figures(t)).menus;
          const button = menus[what];
          assert(button, `no export menu for ${what} (${short(Object.keys(menus))})`);
          await t.page.mouse.click(box.x + (button[0] + button[2]) / 2, box.y + (button[1] + button[3]) / 2);
          await settle(t.page, 300);
          const item = (await figures(t)).menus[`${what}.${format}`];
          assert(item, `${lang}: the ${what} menu has no ${format} item after a click`);
          if (t.opts.shots && format === 'png') await t.page.screenshot({ path: path.join(t.opts.shots, `export-menu-${lang}-${what}.png`) });
          const [download] = await Promise.all([
            t.page.waitForEvent('download', { timeout: 15000 }),
            t.page.mouse.click(box.x + (item[0] + item[2]) / 2, box.y + (item[1] + item[3]) / 2),
          ]);
          const name = download.suggestedFilename();
          const bytes = fs.readFileSync(await download.path());
          const sentence = lang === 'ru' ? 'ya-lyublyu-sushi' : 'i-love-sushi';
          assertEq(name, `attention-${format === 'json' ? 'trace' : what}-${sentence}.${format}`, `${lang} ${what} ${format}: file name`);
          if (format === 'png') {
            const fig = (await figures(t)).figures.find((f) => f.id === what);
            await checkPng(t, bytes, fig, `${lang} menu ${what} png`);
          } else if (format === 'svg') {
            const parsed = await parseSvg(t, bytes.toString('utf8'));
            assert(!parsed.error, `menu svg: ${parsed.error}`);
            assert(parsed.texts.includes('люблю'), `menu svg: no «люблю» (${short(parsed.texts)})`);
          } else if (format === 'csv') {
            const n = (await t.page.evaluate(() => attentionLab.getTrace().tokens.length));
            assertEq(csvRows(bytes.toString('utf8')).length, n + 1, 'menu csv lines');
          } else {
            const trace = await t.page.evaluate(() => attentionLab.getTrace());
            assertEq(JSON.stringify(JSON.parse(bytes.toString('utf8'))), JSON.stringify(trace), 'menu json = getTrace()');
          }
          t.note(`${lang} menu ${what} ${format}: ${name}, ${bytes.length} bytes`);
        }
        assertClean(t);
      },
    },
    {
      name: 'a11y: a hidden table of the weights follows the state, EN and RU',
      run: async (t) => {
        await openLab(t, 'index.html#sentence=I%20love%20sushi&query=1&lang=en');
        const read = () => t.page.evaluate(() => new Promise((r) => setTimeout(() => {
          const el = document.getElementById('weights-table');
          if (!el) return r(null);
          const rows = [...el.querySelectorAll('tr')].map((tr) => [...tr.children].map((c) => ({ tag: c.tagName, text: c.textContent, value: c.getAttribute('data-value') })));
          const box = el.getBoundingClientRect();
          r({ live: el.getAttribute('aria-live'), lang: el.getAttribute('lang'), caption: el.querySelector('caption').textContent, rows,
              area: box.width * box.height, trace: attentionLab.getTrace(), query: attentionLab.getState().query });
        }, 400)));
        let a = await read();
        assert(a, 'no #weights-table in the page');
        assertEq(a.live, 'polite', 'aria-live');
        assert(a.area <= 1, `the table is visible on screen (${a.area} px²)`);
        const check = (a, lang) => {
          const n = a.trace.tokens.length;
          assertEq(a.lang, lang, 'table lang');
          if (n <= 12) {
            assertEq(a.rows.length, n + 1, `${lang}: rows (header + N)`);
            assertEq(a.rows[0].slice(1).map((c) => c.text).join('|'), a.trace.tokens.join('|'), `${lang}: column headers`);
            for (let i = 0; i < n; i++) {
              assertEq(a.rows[i + 1][0].tag, 'TH', 'row header');
              assertEq(a.rows[i + 1][0].text, a.trace.tokens[i], `${lang}: row ${i} header`);
              for (let j = 0; j < n; j++) assertEq(Number(a.rows[i + 1][j + 1].value), a.trace.weights[i][j], `${lang}: cell (${i}, ${j})`);
            }
          } else {
            assertEq(a.rows.length, n + 1, `${lang}: rows of the query's row (header + N keys)`);
            for (let j = 0; j < n; j++) assertEq(Number(a.rows[j + 1][1].value), a.trace.weights[a.query][j], `${lang}: key ${j}`);
          }
        };
        check(a, 'en');
        assert(/query/.test(a.caption), a.caption);
        let r = await t.page.evaluate(() => attentionLab.setState({ sentence: 'я люблю суши и чай', lang: 'ru', temperature: 0.5, query: 2 }));
        assert(r.ok, short(r));
        a = await read();
        check(a, 'ru');
        assert(/запрос/.test(a.caption), a.caption);
        assertEq(a.rows[0][1].text, 'я', 'RU header token');
        r = await t.page.evaluate(() => attentionLab.setState({ sentence: 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen', lang: 'en', query: 4 }));
        assert(r.ok, short(r));
        a = await read();
        check(a, 'en');
        assert(/"five"/.test(a.caption), `caption names the query: ${a.caption}`);
        assertClean(t);
      },
    },
    {
      name: 'a11y: keyboard navigation: arrows move between the controls, Space presses (laptop)',
      run: async (t) => {
        await openLab(t, 'index.html#lang=en');
        await settle(t.page, 600);
        const box = await t.page.locator('#canvas').boundingBox();
        await t.page.mouse.click(box.x + 150, box.y + 249);   // the settings panel ("projections")
        await settle(t.page, 200);
        // Down the panel's controls with the arrow keys; Space presses the highlighted one. The
        // first control reached that Space changes ends the walk (which one depends on where
        // the highlight starts: identity is already on, so a Space there changes nothing).
        const start = await t.page.evaluate(() => attentionLab.getState());
        let changed = null, presses = 0;
        for (let i = 0; i < 5 && !changed; i++) {
          for (const k of ['ArrowDown', 'Space']) { await t.page.keyboard.press(k); presses++; await settle(t.page, 150); }
          const now = await t.page.evaluate(() => attentionLab.getState());
          changed = ['projection', 'scaled', 'positional'].find((f) => now[f] !== start[f]) || null;
          if (changed) t.note(`${presses} key presses: ${changed} ${start[changed]} -> ${now[changed]}`);
        }
        assert(changed, 'arrow keys and Space changed no setting of the settings panel');
        if (t.opts.shots) await t.page.screenshot({ path: path.join(t.opts.shots, 'keyboard-nav.png') });
        assertClean(t);
      },
    },
    {
      name: 'a11y: prefers-reduced-motion: a link does not start training, the learner still can',
      context: { reducedMotion: 'reduce' },
      run: async (t) => {
        await openLab(t, 'index.html#view=training&train.play=1&lang=en');
        await settle(t.page, 800);
        const s = await t.page.evaluate(() => ({ play: attentionLab.getState().train.play, steps: attentionLab.getTraining().a.steps.length,
                                                 media: matchMedia('(prefers-reduced-motion: reduce)').matches,
                                                 cls: document.documentElement.className }));
        assert(s.media, 'the browser does not report reduced motion');
        assertEq(s.play, false, 'train.play after load under reduced motion');
        assertEq(s.steps, 0, 'steps trained by themselves');
        assert(/reduced-motion/.test(s.cls), s.cls);
        const r = await t.page.evaluate(() => attentionLab.train(25));
        assert(r.ok && r.step === 25, short(r));
        const play = await t.page.evaluate(() => attentionLab.setState({ train: { play: true } }));
        assert(play.ok, short(play));
        await settle(t.page, 800);
        const after = await t.page.evaluate(() => attentionLab.getTraining().a.steps.length);
        assert(after > 25, `Play pressed by the learner trains (${after} steps)`);
        assertClean(t);
      },
    },
  ];
}
