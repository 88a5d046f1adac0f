// Browser tests: GPT-2-family checkpoints opened in the page (issue 38; docs/models.md), the random
// checkpoints of scripts/gpt2_fixture.py served by the test's own server under /fixtures/ (with
// HTTP Range and ETag, like a model host). By #modelUrl= (every request for the weights a Range
// request, getTrace equal to `attnlab model run` on the same folder, every tool, a second visit
// downloading no weights, Forget, a server without Range read as one stream), by the learner's files (loadModel({files}), a drop, the file
// picker), and the refusals: a missing or broken folder, a model too large for the page (refused
// before its weights are fetched), a network error, a cancel mid-download; each keeps the model
// held. Run by run.mjs (--fixtures DIR).
import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { assert, assertEq, short } from '../lib/assert.mjs';
import { assertClean, canvasStats, openLab, panelsDrawn, settle, sleep } from '../lib/page.mjs';

// The lab's own buttons (ImGui's, drawn in the canvas) in the laptop layout's model settings, as
// screenshots show them: "Open a model folder…" under a checkpoint's name, and a download's
// Cancel under its progress bar while the lab's own model is held.
const OPEN_MODEL_BUTTON = [95, 564];
const CANCEL_BUTTON = [50, 600];

export function checkpointTests() {

  function fixtures(t) {
    assert(t.opts.fixtures, 'run.mjs needs --fixtures DIR (the GPT-2 checkpoints of scripts/gpt2_fixture.py)');
    return t.opts.fixtures;
  }

  function cli(t, args) {
    return new Promise((resolve, reject) => {
      execFile(t.opts.attnlab, args, { maxBuffer: 1 << 28 }, (err, stdout, stderr) => {
        if (err) reject(new Error(`attnlab ${args.join(' ')}: ${err.message} ${stderr}`));
        else resolve(JSON.parse(stdout));
      });
    });
  }

  const status = (t) => t.page.evaluate(() => attentionLab.getModelStatus());

  // Until the status is `want` and `ok(st)`; a failure when another was wanted says its message.
  async function waitStatus(t, want, ok = () => true, ms = 90000) {
    const t0 = Date.now();
    let st = null;
    while (Date.now() - t0 < ms) {
      st = await status(t).catch(() => null);
      if (st && st.load === want && ok(st)) return st;
      if (st && st.load === 'failed' && want !== 'failed') throw new Error(`the model failed to load: ${st.message}`);
      await sleep(150);
    }
    throw new Error(`model status stayed ${short(st)} (wanted ${want})`);
  }

  // The page's model against `attnlab model run DIR` on the same sentence: ids, tokens, every head's
  // rows, the next tokens, every bit.
  async function sameAsCli(t, dir, sentence) {
    const s = await t.page.evaluate((sentence) => attentionLab.setState({ sentence, layer: 0, head: 0 }), sentence);
    assert(s.ok, `setState: ${short(s)}`);
    const trace = await t.page.evaluate(() => attentionLab.getTrace());
    assert(trace.error === null, `trace error: ${short(trace.error)}`);
    const ref = await cli(t, ['model', 'run', dir, '--text', sentence]);
    const m = trace.model;
    assertEq(JSON.stringify(m.ids), JSON.stringify(ref.tokens.map((x) => x.id)), `${dir}: ids`);
    assertEq(JSON.stringify(m.tokens), JSON.stringify(ref.tokens.map((x) => x.text)), `${dir}: tokens`);
    assertEq(JSON.stringify(m.weights), JSON.stringify(ref.weights), `${dir}: every head's rows, every bit`);
    assertEq(JSON.stringify(m.next), JSON.stringify(ref.next), `${dir}: the next tokens`);
    return trace;
  }

  // The files a checkpoint may have or not (the page asks; a 404 says "not there"): their 404s and
  // Chromium's console line for each are expected, nothing else.
  function dropOptional404s(t) {
    const optional = /\/(attnlab-tokenizer\.json|tokenizer\.json|tokenizer_config\.json|vocab\.json|merges\.txt|model\.safetensors\.index\.json)$/;
    const before = t.monitor.httpErrors.length;
    t.monitor.httpErrors = t.monitor.httpErrors.filter((e) => !(e.startsWith('404 ') && optional.test(e)));
    let n = before - t.monitor.httpErrors.length;
    t.monitor.consoleErrors = t.monitor.consoleErrors.filter((e) => !(n > 0 && /Failed to load resource.*404/.test(e) && n--));
  }

  // Every tool on the model held: the tabs draw with the gallery, the probe, a knock-out with the
  // keys' effects, "Train it more".
  // trainable false: a Llama-family model, which "Train it more" refuses by name (checked apart)
  async function everyTool(t, trainable = true) {
    for (const [view, id] of [['steps', 'steps'], ['weights', 'heatmap'], ['vectors', 'vectors'], ['information', 'information'], ['whatif', 'whatif']]) {
      const r = await t.page.evaluate((view) => attentionLab.setState({ view }), view);
      assert(r.ok, `view ${view}: ${short(r)}`);
      await settle(t.page, 500);
      const panels = (await panelsDrawn(t) || '').split(' ');
      assert(panels.includes(id) && panels.includes('heads'), `the ${view} view draws ${id} and the gallery: ${panels.join(' ')}`);
    }
    // (the Russian built-in text: GPT-2's vocabulary cuts Cyrillic finer, enough tokens for this context)
    await t.page.evaluate(() => attentionLab.setState({ lang: 'ru' }));
    let probe;
    for (let i = 0; i < 50; i++) {  // once the built-in texts have come (fetched with model mode)
      probe = await t.page.evaluate(() => attentionLab.probeHead());
      if (!/not loaded yet/.test(probe.error || '')) break;
      await sleep(200);
    }
    assert(probe.ok !== false, `probeHead: ${short(probe)}`);
    await t.page.evaluate(() => attentionLab.setState({ lang: 'en' }));
    const ko = await t.page.evaluate(() => attentionLab.setState({ knockoutHeads: '1:0' }));
    assert(ko.ok, `knock-out: ${short(ko)}`);
    const trace = await t.page.evaluate(() => attentionLab.getTrace());
    assert(trace.error === null && trace.model && trace.model.keyEffects, `trace with a knock-out: ${short(trace.error)}`);
    await t.page.evaluate(() => attentionLab.setState({ knockoutHeads: '' }));
    if (!trainable) return;
    const tune = await t.page.evaluate(() => attentionLab.tuneModel({ steps: 1 }));
    assert(tune.ok, `train it more: ${short(tune)}`);
  }

  const weightRequests = (t, folder) => t.server.requests.filter((r) => r.path.endsWith('.safetensors') && r.path.includes(`/${folder}/`));

  // A folder's files as File objects made in the page (from the server's copy): loadModel({files}).
  async function filesInPage(t, folder) {
    const names = fs.readdirSync(path.join(fixtures(t), folder));
    return t.page.evaluateHandle(async ({ folder, names }) => {
      const out = [];
      for (const n of names) out.push(new File([await (await fetch(`fixtures/${folder}/${n}`)).arrayBuffer()], n));
      return out;
    }, { folder, names });
  }

  async function clickButton(t, x, y) {
    await t.page.mouse.click(x, y);
    await settle(t.page, 300);
  }

  return [
    {
      name: 'Llama-family checkpoints by #modelUrl (qwen3, mistral, llama3-rope): getTrace equals attnlab model run; Steps, Positions (RoPE), the gallery, every tool, knock-outs per query head; Train it more refuses by name',
      timeout: 300,
      async run(t) {
        assert(t.opts.llamaFixtures, 'run.mjs needs --llama-fixtures DIR (the checkpoints of scripts/llama_fixture.py)');
        for (const name of ['qwen3', 'mistral', 'llama3-rope']) {
          const dir = path.join(t.opts.llamaFixtures, name);
          await openLab(t, `index.html#lang=en&projection=model&modelUrl=llama%2F${name}%2F&sentence=I%20love%20sushi`);
          const st = await waitStatus(t, 'ready', (s) => s.model && s.model.name === name);
          assertEq(st.model.format, 'huggingface', `${name}: what was opened`);
          // (the mistral fixture's window is 6 keys: the longer sentences cross it)
          for (const sentence of ['I love sushi', 'я люблю суши', 'The cat sat on the mat because it was tired.']) await sameAsCli(t, dir, sentence);
          // the RoPE scene: the page's numbers are the CLI's, and the same offset gives one score
          const v = await t.page.evaluate(() => attentionLab.setState({ view: 'positions', sentence: 'The cat sat on the mat', layer: 1, head: 2, query: 5 }));
          assert(v.ok, `view positions: ${short(v)}`);
          await settle(t.page, 500);
          assert((await panelsDrawn(t) || '').split(' ').includes('positions'), `${name}: the Positions panel draws`);
          const trace = await t.page.evaluate(() => attentionLab.getTrace());
          const ref = await cli(t, ['model', 'offsets', dir, '--text', 'The cat sat on the mat', '--layer', '1', '--head', '2', '--query', '5']);
          assertEq(JSON.stringify(trace.model.offsets), JSON.stringify(ref), `${name}: the RoPE scene, page and CLI`);
          assert(ref.rotary && ref.sameSpread < 1e-4 && ref.change > 100 * ref.sameSpread, `${name}: one score per offset: ${short(ref)}`);
          const tune = await t.page.evaluate(() => attentionLab.tuneModel({ steps: 1 }));
          assert(!tune.ok && /Llama-family model is opened, not trained/.test(tune.error), `${name}: train it more refuses: ${short(tune)}`);
          if (name !== 'qwen3') continue;
          // every tool; knock-outs of query heads 1:2 and 1:3, which share their keys and values:
          // each moves the prediction its own way
          await t.page.evaluate(() => attentionLab.setState({ view: 'steps', sentence: 'I love sushi and tea', layer: 1, head: 3, query: 4 }));
          const plain = await t.page.evaluate(() => attentionLab.getTrace());
          const ko = await t.page.evaluate(() => attentionLab.setState({ knockoutHeads: '1:2' }));
          assert(ko.ok, `${name}: knock-out of a query head: ${short(ko)}`);
          const c = (await t.page.evaluate(() => attentionLab.getTrace())).comparison;
          assert(c && !c.error && c.dWeights && c.nextEdited, `${name}: the what-if comparison: ${short(c)}`);
          assert(JSON.stringify(c.nextEdited) !== JSON.stringify(c.nextPlain), `${name}: the next tokens move without head 1:2`);
          await t.page.evaluate(() => attentionLab.setState({ knockoutHeads: '1:3' }));
          const c3 = (await t.page.evaluate(() => attentionLab.getTrace())).comparison;
          assert(c3 && !c3.error && JSON.stringify(c3.nextEdited) !== JSON.stringify(c.nextEdited),
                 `${name}: 1:3 knocked out is not 1:2 knocked out (one query head each): ${short(c3)}`);
          assert(plain.weights && plain.weights.length > 0, `${name}: a plain trace`);
          await t.page.evaluate(() => attentionLab.setState({ knockoutHeads: '' }));
          await everyTool(t, false);
        }
        await canvasStats(t, 'llama-positions-laptop.png');
        await t.page.evaluate(() => attentionLab.setState({ view: 'steps' }));
        await settle(t.page, 500);
        await canvasStats(t, 'llama-steps-laptop.png');
        dropOptional404s(t);
        assertClean(t);
      },
    },
    {
      name: 'checkpoint by #modelUrl: Range requests only, getTrace equals attnlab model run, every tool runs; a second visit downloads no weights; Forget',
      timeout: 300,
      async run(t) {
        const dir = path.join(fixtures(t), 'f16-vocab');
        await openLab(t, 'index.html#lang=en&projection=model&modelUrl=fixtures%2Ff16-vocab%2F&sentence=I%20love%20sushi');
        const st = await waitStatus(t, 'ready', (s) => s.model && s.model.name === 'f16-vocab');
        assertEq(`${st.model.format} ${st.model.dtype}`, 'huggingface F16', 'what was opened');
        // The weights came by Range requests only: the length, the header, the tensors.
        const reqs = weightRequests(t, 'f16-vocab');
        assert(reqs.length >= 3, `requests for the weights: ${short(reqs)}`);
        assertEq(reqs[0].range, 'bytes=0-7', 'the first request: the 8-byte length');
        assert(reqs.every((r) => /^bytes=\d+-\d+$/.test(r.range || '')), `every request for the weights has a Range: ${short(reqs)}`);
        assert(!t.monitor.requests.some((u) => /\/model\/model\.safetensors/.test(u)), `the lab's own model was not fetched: ${t.monitor.requests.filter((u) => /model/.test(u)).join(' ')}`);
        for (const sentence of ['I love sushi', 'я люблю суши', 'The cat sat on the mat. The cat']) await sameAsCli(t, dir, sentence);
        await everyTool(t);
        // A second visit: the weights from the browser's storage (only the 8-byte check again).
        const kept = await t.page.evaluate(() => attentionLab.getModelStatus());
        t.server.requests = [];
        await t.page.reload();
        await waitStatus(t, 'ready', (s) => s.model && s.model.name === 'f16-vocab');
        const again = weightRequests(t, 'f16-vocab');
        assertEq(JSON.stringify(again.map((r) => r.range)), JSON.stringify(['bytes=0-7']), 'the second visit\'s requests for the weights');
        await sameAsCli(t, dir, 'I love sushi');
        // Forget: the space they took, then nothing.
        const f1 = await t.page.evaluate(() => attentionLab.forgetDownloadedModels());
        assert(f1.ok && f1.freedBytes > 1e6, `forget: ${short(f1)} (kept ${short(kept.model)})`);
        const f2 = await t.page.evaluate(() => attentionLab.forgetDownloadedModels());
        assertEq(f2.freedBytes, 0, 'forgotten');
        // A server that ignores Range (the whole file, 200): read as one stream, in order
        const whole = await t.page.evaluate(() => attentionLab.loadModel({ url: 'norange/fixtures/f32-small3/' }));
        assertEq(whole.model && whole.model.name, 'f32-small3', 'opened from a server without Range');
        assertEq(weightRequests(t, 'f32-small3').length, 1, 'one request for the whole weight file');
        await sameAsCli(t, path.join(fixtures(t), 'f32-small3'), 'I love sushi');
        dropOptional404s(t);
        assertClean(t);
      },
    },
    {
      name: 'checkpoint from files: loadModel({files}) (sharded BF16, tokenizer pairs), a dropped folder\'s files, the file picker; each equals attnlab model run',
      timeout: 300,
      async run(t) {
        await openLab(t, 'index.html#lang=en&sentence=I%20love%20sushi');
        await settle(t.page);
        // 1. the page API, from the default page's build (the lab moves to the full build first)
        const files = await filesInPage(t, 'bf16-sharded-tokjson-pairs');
        const st = await t.page.evaluate((files) => attentionLab.loadModel({ files }), files);
        assertEq(`${st.load} ${st.model && st.model.dtype}`, 'ready BF16', 'loadModel({files})');
        assertEq((await t.page.evaluate(() => attentionLab.getState())).projection, 'model', 'model mode shows it');
        await sameAsCli(t, path.join(fixtures(t), 'bf16-sharded-tokjson-pairs'), 'я люблю суши');
        // 2. dropped onto the lab
        const dropped = await filesInPage(t, 'f32-lmhead-tokjson');
        await t.page.evaluate((files) => {
          const dt = new DataTransfer();
          for (const f of files) dt.items.add(f);
          document.getElementById('canvas').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
        }, dropped);
        await waitStatus(t, 'ready', (s) => s.model && s.model.dtype === 'F32' && s.model.fileBytes > 20e6);
        await sameAsCli(t, path.join(fixtures(t), 'f32-lmhead-tokjson'), 'I love sushi');
        // 3. the file picker: "Open a model folder…" in the settings
        await t.page.evaluate(() => attentionLab.setState({ view: 'steps' }));
        await settle(t.page);
        const small = path.join(fixtures(t), 'f32-small3');
        const [chooser] = await Promise.all([t.page.waitForEvent('filechooser', { timeout: 20000 }), clickButton(t, ...OPEN_MODEL_BUTTON)]);
        await chooser.setFiles(small);
        await waitStatus(t, 'ready', (s) => s.model && s.model.name === 'f32-small3');
        await sameAsCli(t, small, 'I love sushi');
        await everyTool(t);
        dropOptional404s(t);
        assertClean(t);
      },
    },
    {
      name: 'checkpoint refusals: missing, not JSON, bert, no tokenizer (before the weights), truncated, too large (before the weights), network error, Cancel; the model held stays',
      timeout: 300,
      async run(t) {
        const src = path.join(fixtures(t), 'f32-small3');
        function folder(name, edit) {
          const d = path.join(t.tmp, name);
          fs.mkdirSync(d, { recursive: true });
          for (const f of fs.readdirSync(src)) fs.copyFileSync(path.join(src, f), path.join(d, f));
          edit(d);
          return `tmp/${name}/`;
        }
        // A model.safetensors naming `tensors` ([name, shape]) in `dtype`, its data a sparse file:
        // never written, never read whole (the page refuses it after the header)
        function sparseWeights(d, tensors, dtype) {
          const header = {};
          let at = 0;
          for (const [n, sh] of tensors) {
            const bytes = (dtype === 'F32' ? 4 : 2) * sh.reduce((a, b) => a * b, 1);
            header[n] = { dtype, shape: sh, data_offsets: [at, at + bytes] };
            at += bytes;
          }
          const h = Buffer.from(JSON.stringify(header));
          const len = Buffer.alloc(8);
          len.writeBigUInt64LE(BigInt(h.length));
          const f = path.join(d, 'model.safetensors');
          fs.writeFileSync(f, Buffer.concat([len, h]));
          fs.truncateSync(f, 8 + h.length + at);
        }
        const config = JSON.parse(fs.readFileSync(path.join(src, 'config.json'), 'utf8'));
        const notJson = folder('not-json', (d) => fs.writeFileSync(path.join(d, 'config.json'), '{"model_type": "gpt2",'));
        const bert = folder('bert', (d) => fs.writeFileSync(path.join(d, 'config.json'), JSON.stringify({ ...config, model_type: 'bert' })));
        const noTok = folder('no-tokenizer', (d) => { fs.rmSync(path.join(d, 'vocab.json')); fs.rmSync(path.join(d, 'merges.txt')); });
        const truncated = folder('truncated', (d) => {
          const f = path.join(d, 'model.safetensors');
          fs.truncateSync(f, Math.floor(fs.statSync(f).size / 2));
        });
        // GPT-2 XL's shape at F32 (6.2 GB): a header naming every tensor, the data a sparse file
        const large = folder('too-large', (d) => {
          const c = { ...config, n_layer: 48, n_head: 25, n_embd: 1600, n_positions: 1024, n_ctx: 1024, vocab_size: 50257 };
          fs.writeFileSync(path.join(d, 'config.json'), JSON.stringify(c));
          const C = 1600, V = 50257, P = 1024, F = 4 * C, tensors = [['wte.weight', [V, C]], ['wpe.weight', [P, C]]];
          for (let l = 0; l < 48; l++)
            for (const [n, sh] of [['ln_1.weight', [C]], ['ln_1.bias', [C]], ['attn.c_attn.weight', [C, 3 * C]], ['attn.c_attn.bias', [3 * C]],
                                   ['attn.c_proj.weight', [C, C]], ['attn.c_proj.bias', [C]], ['ln_2.weight', [C]], ['ln_2.bias', [C]],
                                   ['mlp.c_fc.weight', [C, F]], ['mlp.c_fc.bias', [F]], ['mlp.c_proj.weight', [F, C]], ['mlp.c_proj.bias', [C]]])
              tensors.push([`h.${l}.${n}`, sh]);
          tensors.push(['ln_f.weight', [C]], ['ln_f.bias', [C]]);
          sparseWeights(d, tensors, 'F32');
        });
        // TinyLlama-1.1B's shape at BF16 (2.2 GB, issue 39): the llama-bf16-tied fixture's
        // tokenizer, a header naming every tensor, the data a sparse file
        let tiny = null;
        if (t.opts.llamaFixtures) {
          const d = path.join(t.tmp, 'tinyllama-shape');
          fs.mkdirSync(d, { recursive: true });
          const lsrc = path.join(t.opts.llamaFixtures, 'llama-bf16-tied');
          for (const f of ['tokenizer.json', 'tokenizer_config.json']) fs.copyFileSync(path.join(lsrc, f), path.join(d, f));
          const lc = JSON.parse(fs.readFileSync(path.join(lsrc, 'config.json'), 'utf8'));
          const C = 2048, F = 5632, V = 32000, H = 32, KV = 4, D = 64;
          fs.writeFileSync(path.join(d, 'config.json'), JSON.stringify({ ...lc, hidden_size: C, intermediate_size: F, vocab_size: V,
            num_hidden_layers: 22, num_attention_heads: H, num_key_value_heads: KV, head_dim: D, tie_word_embeddings: false }));
          const tensors = [['model.embed_tokens.weight', [V, C]]];
          for (let l = 0; l < 22; l++)
            for (const [n, sh] of [['input_layernorm.weight', [C]], ['self_attn.q_proj.weight', [H * D, C]], ['self_attn.k_proj.weight', [KV * D, C]],
                                   ['self_attn.v_proj.weight', [KV * D, C]], ['self_attn.o_proj.weight', [C, H * D]],
                                   ['post_attention_layernorm.weight', [C]], ['mlp.gate_proj.weight', [F, C]], ['mlp.up_proj.weight', [F, C]],
                                   ['mlp.down_proj.weight', [C, F]]])
              tensors.push([`model.layers.${l}.${n}`, sh]);
          tensors.push(['model.norm.weight', [C]], ['lm_head.weight', [V, C]]);
          sparseWeights(d, tensors, 'BF16');
          tiny = 'tmp/tinyllama-shape/';
        }
        // The lab's own model held first
        await openLab(t, 'index.html#lang=en&projection=model&sentence=I%20love%20sushi');
        await waitStatus(t, 'ready', (s) => s.model && s.model.name === '');
        const cases = [
          ['fixtures/no-such-model/', /^config\.json: HTTP 404$/],
          [notJson, /^config\.json: not a JSON object$/],
          [bert, /^config\.json: model_type "bert" is not a model the lab opens \(gpt2, llama, mistral, qwen2, qwen3\)$/],
          [noTok, /^no tokenizer: expected tokenizer\.json, or vocab\.json and merges\.txt, beside config\.json$/],
          [truncated, /^model\.safetensors: /],
          [large, /^too large for this page: it needs \d+ MB \(the weights \d+ MB, a run \d+ MB, the largest tensor on its way \d+ MB\) and the page has \d+ MB of its \d+ MB left/],
          ['https://models.invalid/nothing/', /^config\.json: .*CORS/],
        ];
        if (tiny) cases.push([tiny, /^too large for this page: it needs \d+ MB \(the weights 2\d\d\d MB, a run \d+ MB, the largest tensor on its way \d+ MB\) and the page has \d+ MB of its \d+ MB left/]);
        for (const [url, want] of cases) {
          const before = t.server.requests.length;
          const err = await t.page.evaluate((url) => attentionLab.loadModel({ url }).then(() => null, (e) => e.message), url);
          assert(err !== null && want.test(err), `${url}: the refusal ${JSON.stringify(err)} (wanted ${want})`);
          const st = await waitStatus(t, 'failed');
          assertEq(st.message, err, `${url}: the status says it`);
          assert(st.model && st.model.name === '', `${url}: the model held stays (${short(st.model)})`);
          const trace = await t.page.evaluate(() => attentionLab.getTrace());
          assert(trace.error === null && trace.model && trace.model.ids.length > 0, `${url}: the lab works with the model held`);
          const weights = t.server.requests.slice(before).filter((r) => r.path.endsWith('.safetensors'));
          if (url === noTok) assertEq(weights.length, 0, 'no tokenizer: refused before the weights');
          if (url === large || url === tiny) assertEq(weights.length, 2, `too large: refused after the length and the header (${short(weights)})`);
        }
        await settle(t.page);
        if (t.opts.shots) await t.page.screenshot({ path: path.join(t.opts.shots, 'checkpoint-refused-laptop-en.png') });
        // Cancel mid-download (a slow server): the model held stays, nothing half-loaded
        await t.page.evaluate(() => { attentionLab.loadModel({ url: 'slow/fixtures/f32-lmhead-tokjson/' }).catch(() => {}); });
        const loading = await waitStatus(t, 'loading', (s) => s.totalBytes > 0 && s.bytes > 0, 60000);
        assert(loading.bytes < loading.totalBytes, `mid-download: ${short(loading)}`);
        await settle(t.page, 300);
        if (t.opts.shots) await t.page.screenshot({ path: path.join(t.opts.shots, 'checkpoint-loading-laptop-en.png') });
        await clickButton(t, ...CANCEL_BUTTON);
        const after = await waitStatus(t, 'ready', (s) => s.message === 'the download was cancelled', 20000);
        assert(after.model && after.model.name === '', `cancelled: the model held stays (${short(after.model)})`);
        t.monitor.consoleErrors = t.monitor.consoleErrors.filter((e) => !/Failed to load resource|ERR_ABORTED|net::/.test(e));
        t.monitor.httpErrors = [];
        t.monitor.foreign = t.monitor.foreign.filter((u) => !u.startsWith('https://models.invalid/'));
        assertClean(t);
      },
    },
  ];
}
