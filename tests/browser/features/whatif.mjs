// Browser tests of issue 23, "What if, and what mattered": the comparison of an edited run with
// the plain one in getTrace() (Δα and ΔA equal to the difference of two getTrace() results, and to
// `attnlab trace --compare`), the shuffle's lesson, a value dragged with the mouse, the new state
// fields through a link, the refusals in the one wording, and the What if tab on a laptop and a
// phone (screenshots). Run by run.mjs.
import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { assert, assertEq, compareJSON, short, TestFailure } from '../lib/assert.mjs';
import { decodePNG } from '../lib/png.mjs';
import { assertClean, openLab, settle } from '../lib/page.mjs';
import { runNative } from '../lib/native.mjs';

export function whatIfTests() {

  // attnlab trace --compare for a state: {state, plain, edited, comparison}.
  function runCompare(bin, state, tmp, tag) {
    const file = path.join(tmp, `compare-${tag}.json`);
    fs.writeFileSync(file, JSON.stringify(state));
    return new Promise((resolve, reject) => {
      execFile(bin, ['trace', file, '--compare'], { maxBuffer: 64 << 20, timeout: 60000 }, (err, stdout, stderr) => {
        if (err) reject(new TestFailure(`${bin} trace --compare failed: ${err.message} ${stderr}`.trim()));
        else resolve(JSON.parse(stdout));
      });
    });
  }
  // attnlab trace's refusal for a state: its one line on stderr (exit code 2).
  function runRefusal(bin, state, tmp, tag) {
    const file = path.join(tmp, `refuse-${tag}.json`);
    fs.writeFileSync(file, JSON.stringify(state));
    return new Promise((resolve) => {
      execFile(bin, ['trace', file], { timeout: 60000 }, (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stderr: stderr.trim() }));
    });
  }

  // The what-if tools are in the full build (app/whatif/whatif.h): the default page's build
  // moves onto it when they are asked for (here: the What if tab shown, then the view asked for).
  async function waitFull(t, view) {
    const t0 = Date.now();
    await t.page.evaluate(() => { if (attentionLab.getBuild() !== 'full') attentionLab.setState({ view: 'whatif' }); });
    while (await t.page.evaluate(() => attentionLab.getBuild()) !== 'full') {
      if (Date.now() - t0 > 60000) throw new TestFailure('the lab did not move to the full build within 60 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    if (view) await t.page.evaluate((v) => attentionLab.setState({ view: v }), view);
    await settle(t.page);
  }

  // The plain run and the edited run through the page, and its comparison.
  async function twoTraces(t, plain, edit) {
    return t.page.evaluate(([p, e]) => {
      const none = { whatIfToken: -1, whatIfWith: '', whatIfMode: 'replace', shuffle: 'off', knockoutKeys: '', knockoutHeads: '', valueToken: -1, valueA: 0, valueB: 0 };
      const r0 = attentionLab.setState({ ...p, ...none });
      const t0 = attentionLab.getTrace();
      const r1 = attentionLab.setState(e);
      return { r0, r1, plain: t0, edited: attentionLab.getTrace(), state: attentionLab.getState() };
    }, [plain, edit]);
  }

  // Δα and ΔA recomputed in JS from two traces, against the page's comparison: exactly equal (the
  // engine subtracts the two floats in double, as JS does).
  function checkDelta(r, name) {
    const c = r.edited.comparison;
    assert(c && Array.isArray(c.dWeights), `${name}: getTrace().comparison is missing: ${short(c)}`);
    const toE = c.toEdited, heads = r.plain.heads.weights.length, n = r.plain.tokens.length;
    assertEq(c.dWeights.length, heads, `${name}: heads of dWeights`);
    let count = 0, worst = 0;
    for (let h = 0; h < heads; h++) {
      const a = r.plain.heads.weights[h], b = r.edited.heads.weights[h];
      for (let i = 0; i < n; i++) {
        const ie = toE[i];
        for (let j = 0; j < n; j++) {
          const je = toE[j];
          const expected = ie < 0 ? 0 : (je >= 0 ? b[ie][je] : 0) - a[i][j];
          const got = c.dWeights[h][i][j];
          if (got !== expected) throw new TestFailure(`${name}: dWeights[${h}][${i}][${j}] = ${got}, the traces give ${expected}`);
          worst = Math.max(worst, Math.abs(got));
          count++;
        }
      }
    }
    assertEq(c.maxAbsDWeight, worst, `${name}: maxAbsDWeight`);
    const q = c.query, qe = c.queryEdited;
    r.plain.output[q].forEach((x, k) => {
      const expected = r.edited.output[qe][k] - x;
      if (c.dOutput[k] !== expected) throw new TestFailure(`${name}: dOutput[${k}] = ${c.dOutput[k]}, the traces give ${expected}`);
    });
    return { count, worst };
  }

  const CASES = [
    ['replace «суши» by «рис» (RU)', { sentence: 'я люблю суши', query: 1, projection: 'identity', lang: 'ru', heads: 1, head: 0, positional: true, causal: false },
     { whatIfToken: 2, whatIfWith: 'рис' }],
    ['delete «я»', { sentence: 'я люблю суши', query: 1, projection: 'identity', lang: 'ru' }, { whatIfToken: 0, whatIfWith: '' }],
    ['insert «очень» before «люблю»', { sentence: 'я люблю суши', query: 1, projection: 'identity', lang: 'ru' },
     { whatIfToken: 1, whatIfWith: 'очень', whatIfMode: 'insert' }],
    ['replace "sushi" by "tea", random, 2 heads (EN)', { sentence: 'I love sushi and rice', query: 1, projection: 'random', heads: 2, head: 1, lang: 'en', dK: 4, seed: 3 },
     { whatIfToken: 2, whatIfWith: 'tea' }],
    ['knock out the key "sushi", 2 heads', { sentence: 'I love sushi and rice', query: 1, projection: 'random', heads: 2, head: 0, lang: 'en' },
     { knockoutKeys: '2' }],
    ['knock out head 2 (0:1)', { sentence: 'I love sushi and rice', query: 1, projection: 'random', heads: 2, head: 1, lang: 'en' },
     { knockoutHeads: '0:1' }],
    ['a value moved, sparsemax', { sentence: 'I love sushi and rice', query: 1, projection: 'identity', heads: 1, head: 0, normalizer: 'sparsemax', lang: 'en' },
     { valueToken: 1, valueA: 0.5, valueB: -0.25 }],
  ];

  // attnlab model run on the shipped model (the site's copy), as the model tests do.
  function modelRun(t, text) {
    return new Promise((resolve, reject) => {
      execFile(t.opts.attnlab, ['model', 'run', path.join(t.opts.site, 'model'), '--text', text], { maxBuffer: 1 << 26 },
               (err, stdout, stderr) => { if (err) reject(new TestFailure(`attnlab model run: ${err.message} ${stderr}`)); else resolve(JSON.parse(stdout)); });
    });
  }

  return [
    {
      name: 'what if in model mode: the top 5 before and after a word edit are two attnlab model runs; a knocked-out head changes nothing before its layer',
      timeout: 240,
      async run(t) {
        await openLab(t, 'index.html#projection=model&sentence=' + encodeURIComponent('я люблю суши') + '&layer=1&head=4&query=1&view=whatif&lang=ru');
        const t0 = Date.now();
        for (;;) {
          const st = await t.page.evaluate(() => attentionLab.getModelStatus());
          if (st.load === 'ready') break;
          if (st.load === 'failed' || Date.now() - t0 > 120000) throw new TestFailure(`the model did not load: ${short(st)}`);
          await new Promise((res) => setTimeout(res, 250));
        }
        for (const [sentence, token, word, edited] of [['я люблю суши', 2, 'рис', 'я люблю рис'], ['I love sushi', 1, 'like', 'I like sushi']]) {
          const r = await t.page.evaluate(([s, k, w]) => attentionLab.setState({ sentence: s, whatIfToken: k, whatIfWith: w }), [sentence, token, word]);
          assert(r.ok, `setState ${sentence}: ${short(r)}`);
          const c = (await t.page.evaluate(() => attentionLab.getTrace())).comparison;
          assert(c && Array.isArray(c.nextEdited), `${sentence}: no comparison in model mode: ${short(c)}`);
          assertEq(c.sentence, edited, 'the edited sentence');
          const [a, b] = [await modelRun(t, sentence), await modelRun(t, edited)];
          const same = (x, y) => x.length === y.length && x.every((n, k) => n.id === y[k].id && Math.fround(n.p) === Math.fround(y[k].p));
          assert(same(c.nextPlain, a.next), `${sentence}: top 5 before ${short(c.nextPlain)} vs attnlab ${short(a.next)}`);
          assert(same(c.nextEdited, b.next), `${edited}: top 5 after ${short(c.nextEdited)} vs attnlab ${short(b.next)}`);
          t.note(`${sentence} -> ${edited}: next ${c.nextPlain.map((n) => JSON.stringify(n.text) + ' ' + n.p.toFixed(3)).join(', ')} -> ` +
                `${c.nextEdited.map((n) => JSON.stringify(n.text) + ' ' + n.p.toFixed(3)).join(', ')}`);
        }
        if (t.opts.shots) { await settle(t.page); await t.page.screenshot({ path: path.join(t.opts.shots, 'whatif-model-word-ru.png') }); }
        const r = await t.page.evaluate(() => attentionLab.setState({ sentence: 'я люблю суши, я люблю суши', whatIfToken: -1, whatIfWith: '', knockoutHeads: '2:3', lang: 'en' }));
        assert(r.ok, `knock out 2:3: ${short(r)}`);
        const c = (await t.page.evaluate(() => attentionLab.getTrace())).comparison;
        const heads = c.dWeights.length / 4;
        for (let k = 0; k < 2 * heads; k++)
          for (const row of c.dWeights[k]) for (const x of row) if (x !== 0) throw new TestFailure(`head ${k}: Δα ${x} before the knocked-out layer`);
        t.note(`knock out 2.3: max |Δα| ${c.maxAbsDWeight.toExponential(2)}; next ${c.nextPlain[0].text} ${c.nextPlain[0].p.toFixed(3)} -> ${c.nextEdited[0].text} ${c.nextEdited[0].p.toFixed(3)}`);
        if (t.opts.shots) { await settle(t.page); await t.page.screenshot({ path: path.join(t.opts.shots, 'whatif-model-knockout-en.png') }); }
        // the Δα export in model mode: the chosen head's (layer 2, head 3 here), as the trace's numbers
        await t.page.evaluate(() => attentionLab.setState({ layer: 2, head: 3 }));
        const csv = await t.page.evaluate(async () => { const r = await attentionLab.export({ what: 'whatif', format: 'csv' }); return r.ok ? r.blob.text() : r; });
        assert(typeof csv === 'string', `the model's Δα CSV was refused: ${short(csv)}`);
        const lines = csv.replace(/^\uFEFF/, '').trim().split('\r\n');
        assert(lines[0].startsWith('"Δα (layer 2, head 3): query \\ key"') || lines[0].startsWith('Δα (layer 2, head 3): query \\ key'), `the CSV's corner: ${lines[0]}`);
        const d = c.dWeights[2 * heads + 3];
        // a CSV line's fields (a token such as "," is quoted, a quote doubled)
        const fields = (line) => {
          const out = [];
          for (let k = 0; k <= line.length;) {
            if (line[k] === '"') {
              let f = '';
              for (k++; k < line.length; k++) {
                if (line[k] === '"' && line[k + 1] === '"') { f += '"'; k++; } else if (line[k] === '"') break; else f += line[k];
              }
              out.push(f);
              k += 2;  // the closing quote and the comma
            } else {
              const e = line.indexOf(',', k);
              out.push(line.slice(k, e < 0 ? line.length : e));
              k = e < 0 ? line.length + 1 : e + 1;
            }
          }
          return out;
        };
        lines.slice(1).forEach((l, i) => fields(l).slice(1).forEach((x, j) => {
          if (Number(x) !== d[i][j]) throw new TestFailure(`model CSV cell ${i},${j} = ${x}, getTrace() says ${d[i][j]}`);
        }));
        // which keys mattered to the next token: the Information panel computes Δ log p key by key
        // (one model run each); the numbers are attnlab model contributions' own
        await t.page.evaluate(() => attentionLab.setState({ sentence: 'I love sushi', knockoutHeads: '', layer: 1, head: 2, view: 'information' }));
        const t1 = Date.now();
        let effects = null;
        for (;;) {
          effects = (await t.page.evaluate(() => attentionLab.getTrace())).model.keyEffects;
          if (effects && effects.done === effects.of) break;
          if (Date.now() - t1 > 60000) throw new TestFailure(`the keys' Δ log p did not finish in 60 s: ${short(effects)}`);
          await new Promise((res) => setTimeout(res, 200));
        }
        const cli = await new Promise((resolve, reject) => {
          execFile(t.opts.attnlab, ['model', 'contributions', path.join(t.opts.site, 'model'), '--text', 'I love sushi', '--layer', '1', '--head', '2'],
                   { maxBuffer: 1 << 26 }, (err, stdout, stderr) => { if (err) reject(new TestFailure(`attnlab model contributions: ${err.message} ${stderr}`)); else resolve(JSON.parse(stdout)); });
        });
        assertEq(effects.nextId, cli.next.id, 'the next token followed');
        assertEq(effects.logp, cli.next.logp, 'its log-probability');
        assertEq(JSON.stringify(effects.delta), JSON.stringify(cli.next.delta), 'Δ log p per key, page vs attnlab model contributions');
        t.note(`I love sushi, head 1.2: Δ log p(${JSON.stringify(effects.next)}) per key ${effects.delta.map((x) => x.toFixed(3)).join(' ')}`);
        if (t.opts.shots) {
          for (let k = 0; k < 8; k++) { await t.page.mouse.move(640, 600); await t.page.mouse.wheel(0, 400); await settle(t.page, 100); }
          await settle(t.page);
          await t.page.screenshot({ path: path.join(t.opts.shots, 'information-model-effects-en.png') });
        }
      }
    },
    {
      name: 'what if in the default page: an edit moves the lab to the full build (its code only, no model files), the state carried',
      timeout: 120,
      async run(t) {
        await openLab(t, 'index.html#sentence=I%20love%20sushi%20and%20rice&query=1&lang=en');
        await settle(t.page);
        const builds = () => t.monitor.requests.filter((u) => /\/index-model\.(js|wasm)$/.test(u)).map((u) => u.split('/').pop()).sort().join(' ');
        assertEq(builds(), '', 'the full build is not fetched before what-if is asked for');
        assertEq(await t.page.evaluate(() => attentionLab.getBuild()), 'default', 'the build at start');
        const r = await t.page.evaluate(() => attentionLab.setState({ whatIfToken: 2, whatIfWith: 'tea' }));
        assert(r.ok, `setState: ${short(r)}`);
        const t0 = Date.now();
        while (await t.page.evaluate(() => attentionLab.getBuild()) !== 'full') {
          if (Date.now() - t0 > 60000) throw new TestFailure('the lab did not move to the full build within 60 s');
          await new Promise((res) => setTimeout(res, 200));
        }
        assertEq(builds(), 'index-model.js index-model.wasm', 'the full build fetched');
        assertEq(t.monitor.requests.filter((u) => /\/model\//.test(u)).length, 0, 'no model files fetched for what-if');
        const st = await t.page.evaluate(() => attentionLab.getState());
        assertEq(`${st.sentence}|${st.whatIfToken}|${st.whatIfWith}`, 'I love sushi and rice|2|tea', 'the state carried over');
        const trace = await t.page.evaluate(() => attentionLab.getTrace());
        assert(trace.comparison && Array.isArray(trace.comparison.dWeights), `the full build compares the runs: ${short(trace.comparison)}`);
      }
    },
    {
      name: 'what if in the default page: a failed download of the full build is said in the tab, the lab keeps working',
      timeout: 120,
      async run(t) {
        await t.context.route(/\/index-model\.wasm$/, (route) => route.abort());
        await openLab(t, 'index.html#sentence=I%20love%20sushi&query=1&view=whatif&lang=en');
        await settle(t.page, 1500);
        assertEq(await t.page.evaluate(() => attentionLab.getBuild()), 'default', 'still the default build');
        const panels = await t.page.evaluate(() => document.getElementById('canvas').getAttribute('data-panels'));
        assert(/whatif/.test(panels || ''), `the What if tab is drawn (its failure message): ${panels}`);
        if (t.opts.shots) await t.page.screenshot({ path: path.join(t.opts.shots, 'whatif-tools-failed.png') });
        const r = await t.page.evaluate(() => attentionLab.setState({ sentence: 'я люблю суши', view: 'weights' }));
        assert(r.ok, `the lab keeps working: ${short(r)}`);
        const trace = await t.page.evaluate(() => attentionLab.getTrace());
        assertEq(trace.tokens.join(' '), 'я люблю суши', 'the default build still computes');
      }
    },
    {
      name: 'what if: Δα and ΔA equal the difference of two getTrace() results and attnlab trace --compare (replace, delete, insert, knock-out, value; EN, RU)',
      async run(t) {
        await openLab(t, 'index.html#view=whatif');
        await waitFull(t);
        let numbers = 0;
        for (const [name, plain, edit] of CASES) {
          const r = await twoTraces(t, plain, edit);
          assert(r.r0.ok && r.r1.ok, `${name}: setState refused: ${short(r.r0)} ${short(r.r1)}`);
          const { count, worst } = checkDelta(r, name);
          numbers += count;
          t.note(`${name}: ${count} Δα checked, max |Δα| ${worst.toExponential(2)}, ‖ΔA‖ ${r.edited.comparison.dOutputNorm.toExponential(2)}, verdict changed: ${r.edited.comparison.verdict.changed}`);
          if (t.opts.attnlab) {
            const native = await runCompare(t.opts.attnlab, r.state, t.tmp, name.replace(/\W+/g, '_'));
            const c1 = compareJSON(native.comparison, r.edited.comparison, 0);
            assert(c1.problems.length === 0, `${name}: the page's comparison differs from attnlab trace --compare: ${c1.problems.join('; ')}`);
            const c2 = compareJSON(native.edited, (({ comparison, ...rest }) => rest)(r.edited), 0);
            assert(c2.problems.length === 0, `${name}: the page's edited trace differs from attnlab's: ${c2.problems.join('; ')}`);
          }
          if (name.startsWith('replace «суши»') && t.opts.shots) {
            await settle(t.page);
            await t.page.screenshot({ path: path.join(t.opts.shots, 'whatif-laptop-ru.png') });
          }
        }
        // without edits the trace has no comparison (and equals attnlab trace's)
        const plain = await t.page.evaluate(() => {
          attentionLab.setState({ whatIfToken: -1, whatIfWith: '', knockoutKeys: '', knockoutHeads: '', valueToken: -1, valueA: 0, valueB: 0, shuffle: 'off' });
          return attentionLab.getTrace();
        });
        assert(!('comparison' in plain), 'a plain run has no comparison');
        t.note(`${numbers} Δα compared exactly`);
        assertClean(t);
      },
    },
    {
      name: 'what if: shuffling without positional encoding or mask permutes the weights; with either the lab reports the difference',
      async run(t) {
        await openLab(t, 'index.html#view=whatif&lang=en');
        await waitFull(t);
        const base = { sentence: 'the cat sat on the mat today', query: 2, projection: 'random', heads: 2, head: 0, dK: 8, seed: 5, normalizer: 'softmax' };
        const results = {};
        for (const [name, extra, edit] of [
          ['reverse, no positional encoding, no mask', { positional: false, causal: false }, { shuffle: 'reverse' }],
          ['seeded 7, no positional encoding, no mask', { positional: false, causal: false }, { shuffle: 'seeded', shuffleSeed: 7 }],
          ['reverse, positional encoding', { positional: true, causal: false }, { shuffle: 'reverse' }],
          ['reverse, causal mask', { positional: false, causal: true }, { shuffle: 'reverse' }],
        ]) {
          const r = await twoTraces(t, { ...base, ...extra }, edit);
          assert(r.r0.ok && r.r1.ok, `${name}: setState refused`);
          const { worst } = checkDelta(r, name);
          // each token's A: the plain run's row i against the edited run's row toEdited[i]
          const toE = r.edited.comparison.toEdited;
          let worstA = 0;
          r.plain.output.forEach((row, i) => row.forEach((x, k) => { worstA = Math.max(worstA, Math.abs(r.edited.output[toE[i]][k] - x)); }));
          const inDouble = r.edited.comparison.shuffleDoubleMaxDiff;
          results[name] = { worst, worstA, inDouble };
          t.note(`${name}: max |Δα| = ${worst.toExponential(3)}, max |ΔA| over every token = ${worstA.toExponential(3)} (float run, compared in double); ` +
                 `both runs in double: max difference ${inDouble.toExponential(3)}`);
          if (name.startsWith('reverse, no') && t.opts.shots) {
            await settle(t.page);
            await t.page.screenshot({ path: path.join(t.opts.shots, 'whatif-shuffle-laptop.png') });
          }
        }
        for (const name of ['reverse, no positional encoding, no mask', 'seeded 7, no positional encoding, no mask']) {
          // The engine computes in float: reordered sums round differently, at float's epsilon.
          assert(results[name].worst < 1e-6, `${name}: the weights did not permute with the tokens (max |Δα| ${results[name].worst})`);
          assert(results[name].worstA < 1e-5, `${name}: A changed (max ${results[name].worstA})`);
          // the same two runs in double (the engine's check, shown in the tab): only the order of the sums
          assert(typeof results[name].inDouble === 'number' && results[name].inDouble < 1e-12,
                 `${name}: in double the weights and A should differ below 1e-12, got ${results[name].inDouble}`);
        }
        for (const name of ['reverse, positional encoding', 'reverse, causal mask'])
          assert(results[name].inDouble > 1e-3, `${name}: in double the order should matter too (${results[name].inDouble})`);
        assert(results['reverse, positional encoding'].worst > 1e-3, 'with positional encoding the order should matter');
        assert(results['reverse, causal mask'].worst > 1e-3, 'with a causal mask the order should matter');
        assertClean(t);
      },
    },
    {
      name: 'what if: dragging a value with the mouse moves A as the engine computes it; reset returns',
      async run(t) {
        await openLab(t, 'index.html#sentence=I%20love%20sushi%20and%20rice&query=1&view=weights&lang=en');
        await waitFull(t, 'weights');
        const figs = JSON.parse(await t.page.evaluate(() => document.getElementById('canvas').getAttribute('data-figures')));
        const list = Array.isArray(figs) ? figs : figs.figures;
        const vec = list.find((f) => f.id === 'vectors');
        assert(vec, `no vectors figure on screen: ${short(figs)}`);
        const [x0, y0, x1, y1] = vec.rect;
        // the value dots: filled circles of colour (120, 190, 255), 5 px and more
        const shot = decodePNG(await t.page.locator('#canvas').screenshot({ type: 'png' }));
        const isDot = (x, y) => {
          const a = (y * shot.width + x) * 4;
          return Math.abs(shot.data[a] - 120) < 8 && Math.abs(shot.data[a + 1] - 190) < 8 && Math.abs(shot.data[a + 2] - 255) < 8;
        };
        let spot = null;
        for (let y = Math.ceil(y0) + 3; y < Math.floor(y1) - 3 && !spot; y++)
          for (let x = Math.ceil(x0) + 3; x < Math.floor(x1) - 3 && !spot; x++) {
            let all = true;
            for (let dy = -2; dy <= 2 && all; dy++) for (let dx = -2; dx <= 2 && all; dx++) all = isDot(x + dx, y + dy);
            if (all) spot = [x, y];
          }
        assert(spot, 'no value dot found in the vectors view');
        const before = await t.page.evaluate(() => {
          // count the address's writes and the state's changes during the drag
          window.dragCount = { writes: [], changes: [], t0: performance.now() };
          const replace = history.replaceState.bind(history);
          history.replaceState = (...a) => { window.dragCount.writes.push(performance.now()); return replace(...a); };
          attentionLab.on('change', () => { window.dragCount.changes.push(performance.now()); });
          return attentionLab.getTrace();
        });
        await t.page.mouse.move(spot[0], spot[1]);
        await t.page.mouse.down();
        for (let k = 1; k <= 12; k++) { await t.page.mouse.move(spot[0] + 3 * k, spot[1] - 2 * k); await settle(t.page, 30); }
        const during = await t.page.evaluate(() => ({ state: attentionLab.getState(), trace: attentionLab.getTrace() }));
        await t.page.mouse.up();
        await settle(t.page, 400);
        // the address: at most one write per 250 ms while dragging, and the last state written
        const count = await t.page.evaluate(() => ({ ...window.dragCount, ms: performance.now() - window.dragCount.t0,
                                                    hash: location.hash, link: attentionLab.getLink() }));
        // The throttle's promise is the gap between writes, whatever the frame rate: a change that
        // comes sooner than 250 ms after a write waits (on a slow machine most changes do not).
        const gaps = count.writes.slice(1).map((w, k) => w - count.writes[k]);
        const soon = count.changes.filter(c => count.writes.some(w => c - w > 5 && c - w < 240)).length;  // a change's own write comes just before it
        t.note(`the drag: ${count.changes.length} state changes, ${count.writes.length} address writes in ${count.ms.toFixed(0)} ms; ` +
               `${soon} changes came within 240 ms of a write; smallest gap between writes ${gaps.length ? Math.min(...gaps).toFixed(0) : '-'} ms`);
        assert(count.writes.length >= 1, 'the drag was not written to the address');
        for (const g of gaps) assert(g >= 240, `two address writes ${g.toFixed(0)} ms apart: the learner's changes must wait 250 ms`);
        assertEq(count.hash, '#' + count.link.split('#')[1], 'the address after the drag holds the last state');
        const s = during.state;
        assert(s.valueToken >= 0, `the drag did not edit a value: ${short(s)}`);
        assert(s.valueA > 0 && s.valueB > 0, `the drag went right and up: valueA ${s.valueA}, valueB ${s.valueB}`);
        assert(during.trace.edits.valueToken >= 0, 'the trace says values were edited');
        const q = during.trace.steps.query;
        const moved = during.trace.output[q].some((x, k) => x !== before.output[q][k]);
        assert(moved, 'A did not move');
        if (t.opts.attnlab) {
          const native = await runNative(t.opts.attnlab, s, t.tmp, 'dragged');
          const { comparison, ...page } = during.trace;
          const c = compareJSON(native, page, 0);
          assert(c.problems.length === 0, `the dragged state's trace differs from attnlab trace: ${c.problems.join('; ')}`);
        }
        t.note(`dragged v of token ${s.valueToken} by (${s.valueA.toFixed(3)}, ${s.valueB.toFixed(3)}); ‖ΔA‖ = ${during.trace.comparison.dOutputNorm.toExponential(3)}`);
        if (t.opts.shots) await t.page.screenshot({ path: path.join(t.opts.shots, 'whatif-drag-laptop.png') });
        const back = await t.page.evaluate(() => { attentionLab.setState({ valueToken: -1, valueA: 0, valueB: 0 }); return attentionLab.getTrace(); });
        assertEq(back.output, before.output, 'A after the reset');
        assertClean(t);
      },
    },
    {
      name: 'what if: every new state field round-trips through a link',
      async run(t) {
        await openLab(t);
        const patches = [
          { sentence: 'я люблю суши и чай', whatIfToken: 2, whatIfWith: 'рис', whatIfMode: 'insert', shuffle: 'seeded', shuffleSeed: 42,
            knockoutKeys: '0,3', heads: 2, knockoutHeads: '0:1', valueToken: 1, valueA: 0.125, valueB: -1.5, view: 'whatif' },
          { sentence: 'the cat sat', whatIfToken: 0, whatIfWith: '', whatIfMode: 'replace', shuffle: 'reverse', knockoutKeys: '', knockoutHeads: '', valueToken: -1, valueA: 0, valueB: 0 },
        ];
        for (const p of patches) {
          const r = await t.page.evaluate(async (patch) => {
            const res = attentionLab.setState(patch);
            await new Promise((ok) => setTimeout(ok, 200));
            return { res, state: attentionLab.getState(), hash: location.hash, link: attentionLab.getLink() };
          }, p);
          assert(r.res.ok, `setState refused: ${short(r.res)}`);
          for (const [k, v] of Object.entries(p)) assertEq(r.state[k], v, `getState().${k}`);
          await openLab(t, 'index.html' + r.hash);
          assertEq(await t.page.evaluate(() => attentionLab.getState()), r.state, `state after loading ${r.hash}`);
          const linkHash = r.link.slice(r.link.indexOf('#'));
          await openLab(t, 'index.html' + linkHash);
          assertEq(await t.page.evaluate(() => attentionLab.getState()), r.state, `state after loading the share link ${linkHash}`);
        }
        assertClean(t);
      },
    },
    {
      name: 'what if: bad edits are refused in the one wording (the page as attnlab), the state unchanged, no crash',
      async run(t) {
        await openLab(t, 'index.html#sentence=я%20люблю%20суши&query=1');
        const cases = [
          ['token index out of range', { whatIfToken: 7, whatIfWith: 'рис' }, 'whatIfToken'],
          ['token index -2', { whatIfToken: -2 }, 'whatIfToken'],
          ['insert without a word', { whatIfToken: 1, whatIfWith: '', whatIfMode: 'insert' }, 'whatIfWith'],
          ['two words', { whatIfToken: 2, whatIfWith: 'два слова' }, 'whatIfWith'],
          ['a word over the limits', { whatIfToken: 2, whatIfWith: 'ж'.repeat(3000) }, 'whatIfWith'],
          ['delete the query', { whatIfToken: 1, whatIfWith: '' }, 'whatIfToken'],
          ['unknown mode', { whatIfMode: 'swap' }, 'whatIfMode'],
          ['unknown shuffle', { shuffle: 'random' }, 'shuffle'],
          ['knock out a key past the end', { knockoutKeys: '0,9' }, 'knockoutKeys'],
          ['knock out garbage', { knockoutKeys: 'a,b' }, 'knockoutKeys'],
          ['knock out head of layer 1', { knockoutHeads: '1:0' }, 'knockoutHeads'],
          ['value token out of range', { valueToken: 5 }, 'valueToken'],
          ['value offset NaN', { valueToken: 0, valueA: NaN }, 'valueA'],
          ['value offset too far', { valueToken: 0, valueB: 1000 }, 'valueB'],
        ];
        const before = await t.page.evaluate(() => JSON.stringify(attentionLab.getState()));
        for (const [name, patch, field] of cases) {
          const r = await t.page.evaluate((p) => ({ r: attentionLab.setState(p), s: JSON.stringify(attentionLab.getState()) }), patch);
          assert(!r.r.ok, `${name}: accepted ${short(patch)}`);
          assertEq(r.r.field, field, `${name}: field`);
          assert(r.r.error.startsWith(field + ': expected '), `${name}: wording: ${r.r.error}`);
          assertEq(r.s, before, `${name}: the state changed`);
          if (t.opts.attnlab && !Number.isNaN(patch.valueA)) {
            const state = { ...JSON.parse(before), ...patch };
            const n = await runRefusal(t.opts.attnlab, state, t.tmp, name.replace(/\W+/g, '_'));
            assertEq(n.code, 2, `${name}: attnlab's exit code`);
            // the command line names the field as "field" (cli.md), then the same words
            const words = r.r.error.slice(field.length + 2);
            assert(n.stderr.includes(`"${field}": ${words}`), `${name}: attnlab says «${n.stderr}», the page «${r.r.error}»`);
          }
        }
        // the lab still draws and answers; in Russian the header says it in Russian
        await t.page.evaluate(() => attentionLab.setState({ lang: 'ru' }));
        await t.page.evaluate(() => attentionLab.setState({ whatIfToken: 9, whatIfWith: 'рис' }));
        await settle(t.page);
        if (t.opts.shots) await t.page.screenshot({ path: path.join(t.opts.shots, 'whatif-refusal-ru.png') });
        assertEq(await t.page.evaluate(() => attentionLab.getState().sentence), 'я люблю суши', 'state after the refusals');
        assertClean(t);
      },
    },
    {
      name: 'what if: the tab on a phone 390x844 and a laptop (EN, RU), exports of Δ (CSV, SVG)',
      context: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
      async run(t) {
        await openLab(t, 'index.html#sentence=I%20love%20sushi%20and%20rice&query=1&whatIfToken=2&whatIfWith=tea&view=whatif&lang=en');
        await waitFull(t);
        const panels = await t.page.evaluate(() => document.getElementById('canvas').getAttribute('data-panels'));
        assert(/whatif/.test(panels || ''), `the what-if panel is not drawn on the phone: ${panels}`);
        if (t.opts.shots) await t.page.screenshot({ path: path.join(t.opts.shots, 'whatif-phone-en.png') });
        await t.page.evaluate(() => attentionLab.setState({ lang: 'ru', shuffle: 'reverse' }));
        await settle(t.page);
        if (t.opts.shots) await t.page.screenshot({ path: path.join(t.opts.shots, 'whatif-phone-ru.png') });
        const files = await t.page.evaluate(async () => {
          const out = {};
          for (const format of ['csv', 'svg']) {
            const r = await attentionLab.export({ what: 'whatif', format });
            out[format] = r.ok ? await r.blob.text() : r;
          }
          return { ...out, trace: attentionLab.getTrace() };
        });
        assert(typeof files.csv === 'string', `the CSV export failed: ${short(files.csv)}`);
        const rows = files.csv.replace(/^\uFEFF/, '').trim().split('\r\n').slice(1).map((l) => l.split(',').slice(1).map(Number));
        const c = files.trace.comparison;
        const head = files.trace.config.head || 0;
        rows.forEach((row, i) => row.forEach((x, j) => {
          if (x !== c.dWeights[head][i][j]) throw new TestFailure(`CSV cell ${i},${j} = ${x}, getTrace() says ${c.dWeights[head][i][j]}`);
        }));
        assert(typeof files.svg === 'string' && files.svg.includes('<svg') && files.svg.includes('diverging'), `the SVG export: ${short(files.svg)}`);
        // the Information panel's weight against contribution, scrolled into view
        await t.page.evaluate(() => attentionLab.setState({ view: 'information', shuffle: 'off', lang: 'en' }));
        await settle(t.page, 400);
        for (let k = 0; k < 6; k++) { await t.page.mouse.move(195, 600); await t.page.mouse.wheel(0, 400); await settle(t.page, 100); }
        await settle(t.page);
        if (t.opts.shots) await t.page.screenshot({ path: path.join(t.opts.shots, 'whatif-information-phone.png') });
        await t.page.evaluate(() => attentionLab.setState({ view: 'whatif', shuffle: 'reverse', lang: 'ru' }));
        await t.page.setViewportSize({ width: 1280, height: 800 });
        await settle(t.page);
        if (t.opts.shots) await t.page.screenshot({ path: path.join(t.opts.shots, 'whatif-laptop-ru-reversed.png') });
        assertClean(t);
      },
    },
  ];
}
