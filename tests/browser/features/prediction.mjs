// Browser tests: the Prediction tab (issue 40; app/inspect, docs/inspect.md) on the shipped model.
// The page API's getLens(), getAttribution(), runPatching() and generate() print what `attnlab
// model lens / attribute / patch / run --generate` print for the same text, every number; a
// patching run reports its progress frame by frame and Cancel stops it; refusals name their
// field; a link opens the tab; screenshots at laptop and phone size, EN and RU. Run by run.mjs.
import path from 'node:path';
import { execFile } from 'node:child_process';
import { assert, short } from '../lib/assert.mjs';
import { assertClean, assertNonBlank, canvasStats, openLab, panelsDrawn, settle } from '../lib/page.mjs';

export function predictionTests() {

  function attnlab(bin, args) {
    return new Promise((resolve, reject) => {
      execFile(bin, args, { maxBuffer: 256 << 20, timeout: 180000 }, (err, stdout, stderr) => {
        if (err) reject(new Error(`attnlab ${args.join(' ')} failed: ${err.message} ${stderr}`.trim()));
        else resolve(JSON.parse(stdout));
      });
    });
  }

  // The model loaded and its run of the state's sentence shown.
  async function modelReady(t) {
    await t.page.waitForFunction(() => {
      try {
        if (window.attentionLab.getModelStatus().load !== 'ready') return false;
        const tr = window.attentionLab.getTrace();
        return tr && tr.model && tr.model.ids && window.attentionLab.getState().projection === 'model';
      } catch (e) { return false; }
    }, null, { timeout: 90000 });
  }

  // Two JSON values equal, numbers bit for bit (both sides print doubles with the shortest text).
  function same(a, b, where) {
    if (Array.isArray(a) || (a && typeof a === 'object')) {
      assert(b && typeof b === 'object', `${where}: ${short(a)} vs ${short(b)}`);
      const ka = Object.keys(a).sort(), kb = Object.keys(b).sort();
      assert(ka.join() === kb.join(), `${where}: keys ${ka} vs ${kb}`);
      let n = 0;
      for (const k of ka) n += same(a[k], b[k], `${where}.${k}`);
      return n;
    }
    assert(a === b, `${where}: page ${short(a)} vs attnlab ${short(b)}`);
    return typeof a === 'number' ? 1 : 0;
  }
  const strip = (o) => { const c = { ...o }; for (const k of ['ok', 'ms', 'running', 'cancelled', 'current']) delete c[k]; return c; };

  const EN = 'When Mary and Tom went to the store, Tom gave a drink to';
  const EN_CORRUPTED = 'When Mary and Tom went to the store, Mary gave a drink to';

  return [
    {
      name: 'prediction: getLens, getAttribution, runPatching and generate equal attnlab model lens, attribute, patch and run',
      timeout: 600,
      async run(t) {
        const dir = path.join(t.opts.site, 'model');
        await openLab(t, 'index.html#projection=model&view=prediction');
        await modelReady(t);
        let numbers = 0;
        for (const sentence of ['я люблю суши', EN]) {
          const r = await t.page.evaluate((s) => window.attentionLab.setState({ sentence: s }), sentence);
          assert(r.ok, `setState: ${short(r)}`);
          const lens = await t.page.evaluate(() => window.attentionLab.getLens());
          assert(lens.ok, `getLens: ${short(lens)}`);
          numbers += same(strip(lens), await attnlab(t.opts.attnlab, ['model', 'lens', dir, '--text', sentence]), `lens ${sentence}`);
          const a = await t.page.evaluate(() => window.attentionLab.getAttribution());
          assert(a.ok, `getAttribution: ${short(a)}`);
          numbers += same(strip(a), await attnlab(t.opts.attnlab, ['model', 'attribute', dir, '--text', sentence]), `attribution ${sentence}`);
          // a target and a foil by id: the logit difference
          const second = a.heads.length ? (await t.page.evaluate(() => window.attentionLab.getTrace().model.next[1].id)) : 0;
          const d = await t.page.evaluate((s) => window.attentionLab.getAttribution({ target: s.second, foil: s.first }),
                                          { second, first: a.target.id });
          numbers += same(strip(d), await attnlab(t.opts.attnlab, ['model', 'attribute', dir, '--text', sentence, '--target',
                                                                   String(second), '--foil', String(a.target.id)]), `difference ${sentence}`);
        }
        // patching: progress from the frames, the grid of attnlab model patch
        const progress = await t.page.evaluate(async (p) => {
          const seen = [];
          const res = await window.attentionLab.runPatching({ ...p, onProgress: (s) => seen.push(s.done) });
          return { res, seen };
        }, { clean: EN, corrupted: EN_CORRUPTED, what: 'resid' });
        assert(progress.res.ok && progress.res.done === progress.res.total, `runPatching: ${short(progress.res)}`);
        assert(progress.seen.length >= 2, `progress events: ${short(progress.seen)} (the run should span frames)`);
        const state = await t.page.evaluate(() => window.attentionLab.getState());
        assert(state.corrupted === EN_CORRUPTED && state.patch === 'resid' && state.sentence === EN, `state after runPatching: ${short(state)}`);
        numbers += same(strip(progress.res), await attnlab(t.opts.attnlab, ['model', 'patch', dir, '--clean', EN, '--corrupted',
                                                                          EN_CORRUPTED, '--what', 'resid']), 'patch resid');
        for (const what of ['head', 'pattern']) {
          const res = await t.page.evaluate((w) => window.attentionLab.runPatching({ what: w }), what);
          numbers += same(strip(res), await attnlab(t.opts.attnlab, ['model', 'patch', dir, '--clean', EN, '--corrupted',
                                                                   EN_CORRUPTED, '--what', what]), `patch ${what}`);
        }
        // the grid's exports: CSV (the numbers of the last run), SVG, JSON (the run's)
        const files = await t.page.evaluate(async () => {
          const out = {};
          for (const format of ['csv', 'svg', 'json']) {
            const r = await window.attentionLab.export({ what: 'patching', format });
            out[format] = r.ok ? { name: r.filename, text: await r.blob.text() } : r;
          }
          return out;
        });
        const last = await t.page.evaluate(() => window.attentionLab.runPatching({}).then((r) => r));
        const csvRows = files.csv.text.replace(/^\uFEFF/, '').trim().split('\r\n');
        assert(csvRows.length === last.rows + 1, `patching CSV: ${csvRows.length} lines for ${last.rows} layers`);
        assert(Number(csvRows[1].split(',')[1]) === last.metric[0][0], `patching CSV's first number ${csvRows[1]} vs ${last.metric[0][0]}`);
        assert(/^<\?xml/.test(files.svg.text) && files.svg.text.includes('diverging'), `patching SVG: ${files.svg.text.slice(0, 80)}`);
        assert(JSON.parse(files.json.text).metric.length === last.rows, `patching JSON: ${files.json.text.slice(0, 80)}`);
        assert(/^attention-patching-.*\.csv$/.test(files.csv.name), `file name ${files.csv.name}`);
        // Cancel: the promise settles with the grid so far
        const cancelled = await t.page.evaluate(() => {
          const p = window.attentionLab.runPatching({ what: 'mlp' });
          window.attentionLab.cancelJob();
          return p;
        });
        assert(cancelled.cancelled === true && cancelled.done < cancelled.total, `cancelled run: ${short(cancelled)}`);
        // refusals, by field
        const bad = await t.page.evaluate(() => Promise.all([
          window.attentionLab.runPatching({ corrupted: 'Mary gave a drink' }),
          window.attentionLab.runPatching({ what: 'all' }),
          window.attentionLab.getAttribution({ target: 'two tokens here' }),
          window.attentionLab.generate({ n: 0 }),
          window.attentionLab.setState({ answer: 'not one token' }),
        ]));
        const fields = bad.map((r) => r.field);
        assert(fields.join() === 'corrupted,what,target,n,answer', `refusals' fields: ${short(bad)}`);
        assert(/as many tokens as the sentence \(\d+\), got \d+/.test(bad[0].error), `lengths named: ${bad[0].error}`);
        // generation: greedy and sampled, the tokens of attnlab model run --generate
        for (const [opts, args] of [[{ n: 8, temperature: 0 }, []],
                                    [{ n: 8, temperature: 0.9, topK: 40, topP: 0.95, seed: 7 },
                                     ['--temperature', '0.9', '--top-k', '40', '--top-p', '0.95', '--seed', '7']]]) {
          const g = await t.page.evaluate((o) => window.attentionLab.generate(o), opts);
          assert(g.ok && !g.running, `generate ${short(opts)}: ${short(g)}`);
          const cli = await attnlab(t.opts.attnlab, ['model', 'run', dir, '--text', EN, '--generate', '8', ...args]);
          numbers += same(g.tokens, cli.generatedTokens, `generate ${short(opts)}`);
        }
        t.note(`${numbers} numbers equal to attnlab's`);
        assertClean(t);
      },
    },
    {
      name: 'prediction: the default page refuses the tab\'s calls until model mode; a link opens the tab',
      async run(t) {
        await openLab(t, 'index.html');
        const r = await t.page.evaluate(() => window.attentionLab.getLens());
        assert(r.ok === false && r.field === 'projection', `getLens in the default build: ${short(r)}`);
        await openLab(t, 'index.html#projection=model&view=prediction&answer=%23262');
        await modelReady(t);
        await settle(t.page);
        const drawn = await panelsDrawn(t);
        for (const p of ['lens', 'attribution', 'patching', 'generate'])
          assert(drawn.split(' ').includes(p), `panel ${p} not drawn: ${drawn}`);
        const lens = await t.page.evaluate(() => window.attentionLab.getLens());
        assert(lens.ok && lens.chosenTarget && lens.targets.every((x) => x.id === 262), `answer from the link: ${short(lens.targets)}`);
        assertClean(t);
      },
    },
    ...[['laptop', { width: 1280, height: 800 }, 'en'], ['phone', { width: 390, height: 844 }, 'ru']].map(([size, viewport, lang]) => ({
      name: `prediction: the tab at ${size} size (${lang}), after a patching run and a generation`,
      context: { viewport },
      timeout: 300,
      async run(t) {
        await openLab(t, `index.html#projection=model&view=prediction&lang=${lang}`);
        await modelReady(t);
        const s = lang === 'ru' ? 'я люблю суши' : EN;
        await t.page.evaluate(async (p) => {
          window.attentionLab.setState({ sentence: p.s });
          if (p.lang === 'en') await window.attentionLab.runPatching({ corrupted: p.c, what: 'head' });
          await window.attentionLab.generate({ n: 6, temperature: 0 });
        }, { s, c: EN_CORRUPTED, lang });
        await settle(t.page, 1500);
        const drawn = await panelsDrawn(t);
        assert(drawn.includes('lens'), `lens not drawn: ${drawn}`);
        assertNonBlank(await canvasStats(t, `prediction-${size}-${lang}.png`), `prediction ${size}`);
        assertClean(t);
      },
    })),
  ];
}
