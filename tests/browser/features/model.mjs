// Browser tests: the trained model in the lab (issue 13). Choosing projection "model" fetches the
// model's files then and only then (none before), with their SHA-256 checked; getTrace() then
// equals `attnlab model run` bit for bit (tokens, ids, every head's rows, the chosen head's
// weights, the next tokens) on «я люблю суши» and "I love sushi"; every head thumbnail of the
// gallery draws; a failing fetch shows a message while the lab keeps working; screenshots at
// laptop and phone size in English and Russian. Run by run.mjs.
import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { assert, assertEq, short } from '../lib/assert.mjs';
import { decodePNG } from '../lib/png.mjs';
import { assertClean, openLab, settle, sleep } from '../lib/page.mjs';

export function modelTests() {

  const modelRequests = (t) => t.monitor.requests.filter((u) => /\/model\//.test(u));
  // The build with the model's code (the default page's has none: src/model/lab/absent.cpp).
  const modelBuildRequests = (t) => t.monitor.requests.filter((u) => /\/index-model\.(js|wasm)$/.test(u));

  function modelRun(t, text) {
    return new Promise((resolve, reject) => {
      execFile(t.opts.attnlab, ['model', 'run', path.join(t.opts.site, 'model'), '--text', text],
               { maxBuffer: 1 << 26 }, (err, stdout, stderr) => {
                 if (err) reject(new Error(`attnlab model run: ${err.message} ${stderr}`));
                 else resolve(JSON.parse(stdout));
               });
    });
  }

  async function waitModel(t, want = 'ready', ms = 60000) {
    const t0 = Date.now();
    let st = null;
    while (Date.now() - t0 < ms) {
      st = await t.page.evaluate(() => attentionLab.getModelStatus());
      if (st.load === want) return st;
      if (st.load === 'failed' && want !== 'failed') throw new Error(`the model failed to load: ${st.message}`);
      await sleep(200);
    }
    throw new Error(`model status stayed ${short(st)} (wanted ${want})`);
  }

  async function shoot(t, name) {
    if (!t.opts.shots) return;
    await settle(t.page, 600);
    await t.page.screenshot({ path: path.join(t.opts.shots, name) });
  }

  return [
    {
      name: 'model mode: the files are fetched only when chosen; getTrace equals attnlab model run bit for bit (EN, RU)',
      timeout: 240,
      async run(t) {
        await openLab(t, 'index.html#lang=en');
        await settle(t.page);
        assertEq(modelRequests(t).length, 0, 'model requests before the mode is chosen');
        assertEq(modelBuildRequests(t).length, 0, 'requests for the model build before the mode is chosen');
        const st0 = await t.page.evaluate(() => attentionLab.getModelStatus());
        assertEq(st0.load, 'not requested', 'status before');
        const r = await t.page.evaluate(() => attentionLab.setState({ projection: 'model', sentence: 'I love sushi', layer: 2, head: 1, query: 3 }));
        assert(r.ok, `setState model: ${short(r)}`);
        await waitModel(t);
        const files = modelRequests(t).map((u) => u.split('/model/')[1]).sort();
        assertEq(files.join(' '), 'MANIFEST.sha256 config.json eval.json heads.json model.safetensors tokenizer.json', 'files fetched');
        assertEq(modelBuildRequests(t).map((u) => u.split('/').pop()).sort().join(' '), 'index-model.js index-model.wasm',
                 'the lab moved to the build with the model\'s code');
        // The state came along: the sentence, layer, head and query set before the switch.
        const carried = await t.page.evaluate(() => attentionLab.getState());
        assertEq(`${carried.sentence}|${carried.layer}.${carried.head}|${carried.query}`, 'I love sushi|2.1|3', 'state carried over');
        for (const [sentence, lang] of [['I love sushi', 'en'], ['я люблю суши', 'ru']]) {
          const s = await t.page.evaluate((p) => attentionLab.setState(p), { sentence, lang, query: 3, layer: 2, head: 1 });
          assert(s.ok, `setState ${sentence}: ${short(s)}`);
          const trace = await t.page.evaluate(() => attentionLab.getTrace());
          const cli = await modelRun(t, sentence);
          assert(trace.error === null, `trace error: ${short(trace.error)}`);
          const m = trace.model;
          assertEq(JSON.stringify(m.ids), JSON.stringify(cli.tokens.map((x) => x.id)), `${sentence}: ids`);
          assertEq(JSON.stringify(m.tokens), JSON.stringify(cli.tokens.map((x) => x.text)), `${sentence}: tokens`);
          assertEq(JSON.stringify(m.weights), JSON.stringify(cli.weights), `${sentence}: every head's rows, every bit`);
          assertEq(JSON.stringify(m.next), JSON.stringify(cli.next), `${sentence}: next tokens`);
          // The chosen head's full matrix is the CLI's rows (zeros above the diagonal).
          const w = trace.weights;
          for (let i = 0; i < w.length; i++)
            for (let j = 0; j < w.length; j++)
              assertEq(w[i][j], j <= i ? cli.weights[2][1][i][j] : 0, `${sentence}: weights[${i}][${j}]`);
          assertEq(trace.config.heads, 6, 'the trace names the model\'s settings');
          assertEq(trace.config.causal, true, 'causal');
        }
        // Everything fetched was checked: no warning about a missing WebCrypto on http://127.0.0.1.
        assert(!t.monitor.warnings.some((w) => /WebCrypto|model was refused/.test(w)), `warnings: ${t.monitor.warnings.join(' | ')}`);
        assertClean(t);
      },
    },
    {
      name: 'model mode: every head thumbnail draws, a click follows it; screenshots laptop/phone EN/RU',
      timeout: 240,
      async run(t) {
        await openLab(t, 'index.html#lang=en&projection=model&sentence=I%20love%20sushi&query=3');
        await waitModel(t);
        await settle(t.page);
        let st = await t.page.evaluate(() => attentionLab.getModelStatus());
        assertEq(st.thumbnails.length, 24, 'thumbnails drawn');  // 4 layers x 6 heads
        const png = decodePNG(await t.page.screenshot({ type: 'png' }));
        const dpr = png.width / 1280;
        for (let k = 0; k < 24; k++) {
          const [x, y, w, hh] = st.thumbnails[k];
          const seen = new Set();
          for (let yy = Math.floor(y + 2); yy < y + hh - 2; yy += 3)
            for (let xx = Math.floor(x + 2); xx < x + w - 2; xx += 3) {
              const i = (Math.floor(yy * dpr) * png.width + Math.floor(xx * dpr)) * 4;
              seen.add((png.data[i] >> 3) + ',' + (png.data[i + 1] >> 3) + ',' + (png.data[i + 2] >> 3));
            }
          assert(seen.size >= 3, `thumbnail ${k} (layer ${Math.floor(k / 6)}, head ${k % 6}) looks empty: ${seen.size} colours`);
        }
        // A click on layer 2, head 3 (an induction head) follows it.
        const [x, y, w, hh] = st.thumbnails[15];
        await t.page.mouse.click(x + w / 2, y + hh / 2);
        await settle(t.page, 400);
        const s = await t.page.evaluate(() => attentionLab.getState());
        assertEq(`${s.layer}.${s.head}`, '2.3', 'the clicked head is followed');
        await shoot(t, 'model-laptop-en.png');
        await t.page.evaluate(() => attentionLab.setState({ lang: 'ru', sentence: 'я люблю суши', query: 4 }));
        await shoot(t, 'model-laptop-ru.png');
        await t.page.evaluate(() => attentionLab.setState({ view: 'steps' }));
        await t.page.setViewportSize({ width: 390, height: 844 });
        await settle(t.page, 400);
        // The view set on the laptop is the phone's tab after the resize.
        const panels = await t.page.evaluate(() => document.getElementById('canvas').getAttribute('data-panels') || '');
        assert(/\bsteps\b/.test(panels) && !/\bsentence\b/.test(panels), `the phone shows the steps tab after the resize: ${panels}`);
        await shoot(t, 'model-phone-ru-steps.png');
        await t.page.evaluate(() => attentionLab.setState({ view: 'sentence', lang: 'en', sentence: 'I love sushi', query: 3 }));
        await shoot(t, 'model-phone-en-sentence.png');
        await t.page.evaluate(() => attentionLab.setState({ view: 'weights' }));
        await shoot(t, 'model-phone-en-weights.png');
        assertClean(t);
      },
    },
    {
      name: 'model mode: the model build failing to download is the usual failure; the lab keeps working',
      timeout: 180,
      async run(t) {
        await t.context.route(/\/index-model\.wasm$/, (route) => route.abort());
        await openLab(t, 'index.html#lang=en&sentence=I%20love%20sushi');
        const r = await t.page.evaluate(() => attentionLab.setState({ projection: 'model', query: 2 }));
        assert(r.ok, `setState model: ${short(r)}`);
        const st = await waitModel(t, 'failed');
        assert(/index-model\.wasm/.test(st.message), `the message names what failed: ${st.message}`);
        const back = await t.page.evaluate(() => attentionLab.setState({ projection: 'identity', query: 1 }));
        assert(back.ok, `back to identity: ${short(back)}`);
        const trace = await t.page.evaluate(() => attentionLab.getTrace());
        assertEq(trace.tokens.join(' '), 'I love sushi', 'the identity lab');
        assert(trace.error === null, 'it computes');
        t.monitor.consoleErrors.length = 0;  // the aborted request's console line
        t.monitor.httpErrors.length = 0;
        assertEq(t.monitor.pageErrors.length, 0, 'page errors');
      },
    },
    {
      name: 'model mode: a failing fetch shows a message and the lab keeps working',
      timeout: 180,
      async run(t) {
        let block = true;
        await t.context.route(/\/model\/model\.safetensors$/, (route) => (block ? route.abort() : route.continue()));
        await openLab(t, 'index.html#lang=ru');
        const r = await t.page.evaluate(() => attentionLab.setState({ projection: 'model' }));
        assert(r.ok, `setState model: ${short(r)}`);
        const st = await waitModel(t, 'failed');
        assert(st.message.length > 0, 'a message');
        await shoot(t, 'model-failed-ru.png');
        // The lab works: another projection computes as before.
        const back = await t.page.evaluate(() => attentionLab.setState({ projection: 'identity', query: 1 }));
        assert(back.ok, `back to identity: ${short(back)}`);
        const trace = await t.page.evaluate(() => attentionLab.getTrace());
        assertEq(trace.tokens.join(' '), 'я люблю суши', 'the identity lab');
        // Model mode again: the message again (no new request until the learner presses Try again).
        block = false;
        await t.page.evaluate(() => attentionLab.setState({ projection: 'model' }));
        await settle(t.page, 400);
        assertEq((await t.page.evaluate(() => attentionLab.getModelStatus())).load, 'failed', 'still failed before Retry');
        t.monitor.consoleErrors.length = 0;  // the aborted request's console line
        t.monitor.httpErrors.length = 0;
        assertEq(t.monitor.pageErrors.length, 0, 'page errors');
      },
    },
    {
      name: "lesson step 4's extra: the induction head on «я люблю суши, я люблю суши», each repeated token's row on the token after its earlier copy (laptop, phone; screenshots)",
      timeout: 180,
      async run(t) {
        // The state the step's extra button sets, read from the lesson's own document.
        const lesson = JSON.parse(fs.readFileSync(path.join(t.opts.site, 'lessons', 'seed.json'), 'utf8'));
        const extra = lesson.steps[3].extra.state;
        assertEq(extra.projection, 'model', 'the extra is in model mode');
        const hash = Object.entries({ lang: 'en', lesson: 4, predictions: '---a-----', ...extra })
          .map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
        await openLab(t, 'index.html#' + hash);
        await waitModel(t);
        await settle(t.page, 400);
        const s = await t.page.evaluate(() => attentionLab.getState());
        assertEq(`${s.lesson}|${s.layer}.${s.head}`, `4|${extra.layer}.${extra.head}`, 'the step and its head');
        // heads.json names the head induction (issue 21: at least 0.3).
        const heads = JSON.parse(fs.readFileSync(path.join(t.opts.site, 'model', 'heads.json'), 'utf8')).heads;
        const scores = heads.find((h) => h.layer === extra.layer && h.head === extra.head);
        assert(scores.induction >= 0.3, `the extra's head has induction ${scores.induction}`);
        // The page's weights for that head: every token seen before puts clearly more weight on
        // the token after its earlier copy than spreading evenly would.
        const trace = await t.page.evaluate(() => attentionLab.getTrace());
        const ids = trace.model.ids, w = trace.weights;
        let sum = 0, even = 0, rows = 0;
        for (let q = 0; q < ids.length; q++) {
          let j = -1;
          for (let k = q - 1; k >= 1; k--) if (ids[k] === ids[q]) { j = k; break; }
          if (j < 1 || j + 1 >= q) continue;
          sum += w[q][j + 1];
          even += 1 / (q + 1);
          rows++;
        }
        assertEq(rows, 4, 'repeated tokens: « люб», «лю», « су», «ши»');
        t.note(`head ${extra.layer}.${extra.head}: mean weight after the earlier copy ${(sum / rows).toFixed(2)}, spread evenly ${(even / rows).toFixed(2)}`);
        assert(sum > 3 * even, `mean ${sum / rows} against ${even / rows} spread evenly`);
        await shoot(t, 'lesson-induction-laptop-en.png');
        await t.page.setViewportSize({ width: 390, height: 844 });
        await t.page.evaluate(() => attentionLab.setState({ lang: 'ru' }));
        await shoot(t, 'lesson-induction-phone-ru.png');
        assertClean(t);
      },
    },
  ];
}
