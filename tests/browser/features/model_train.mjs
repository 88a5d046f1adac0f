// Browser tests: "Train it more" in model mode (issue 13). Training more changes the weights (the
// chosen head's trace differs), its losses and the weights' checksum are the ones `attnlab model
// tune` prints for the same text and steps (bit for bit), Stop stops, Reset restores the shipped
// weights bit for bit (the trace is the one before training); a text too short is refused with a
// message in the panel; screenshots at laptop and phone size, in English and Russian. Run by
// run.mjs.
import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { assert, assertEq, short } from '../lib/assert.mjs';
import { assertClean, openLab, settle, sleep } from '../lib/page.mjs';

export function modelTrainTests() {

  function runTune(bin, args) {
    return new Promise((resolve, reject) => {
      execFile(bin, ['model', 'tune', ...args], { maxBuffer: 64 << 20, timeout: 300000 }, (err, stdout, stderr) => {
        if (err) reject(new Error(`attnlab model tune ${args.join(' ')}: ${err.message} ${stderr}`));
        else resolve(JSON.parse(stdout));
      });
    });
  }

  // Model mode with the model loaded (its files fetched when the mode is chosen).
  async function modelMode(t, patch) {
    const r = await t.page.evaluate((p) => attentionLab.setState(p), Object.assign({ projection: 'model' }, patch));
    assert(r.ok, `setState: ${short(r)}`);
    const t0 = Date.now();
    for (;;) {
      const s = await t.page.evaluate(() => attentionLab.getTuneStatus());
      if (s.loaded) return s;
      assert(Date.now() - t0 < 90000, `the model did not load in 90 s: ${short(s)}`);
      await sleep(250);
    }
  }

  // Waits for the run to end; returns the status.
  async function untilStopped(t, seconds) {
    const t0 = Date.now();
    for (;;) {
      const s = await t.page.evaluate(() => attentionLab.getTuneStatus());
      if (!s.running) return s;
      assert(Date.now() - t0 < seconds * 1000, `the run did not end in ${seconds} s: ${short(s)}`);
      await sleep(200);
    }
  }

  const headTrace = (t) => t.page.evaluate(() => {
    const tr = attentionLab.getTrace();
    delete tr.state;
    return JSON.stringify(tr);
  });

  return [
    {
      name: 'train it more: the weights change, the CLI gives the same losses and checksum, Stop stops, Reset restores every bit',
      timeout: 300,
      context: { viewport: { width: 1280, height: 800 } },
      async run(t) {
        assert(t.opts.attnlab && fs.existsSync(t.opts.attnlab), `native tool not found: ${t.opts.attnlab}`);
        await openLab(t);
        const s0 = await modelMode(t, { sentence: 'I love sushi', layer: 0, head: 0, lang: 'en', tuneText: 'en' });
        assertEq(s0.trained, false, 'trained before any run');
        assertEq(s0.checksum, s0.shippedChecksum, 'the weights before training');
        const before = await headTrace(t);
        assert(before.length > 100 && !/"error":\{/.test(before), `the trace before: ${before.slice(0, 200)}`);

        // The panel: a tab beside Steps and Information on a laptop (the heatmap stays in view).
        await settle(t.page, 300);
        const canvas = await t.page.locator('#canvas').boundingBox();
        await t.page.mouse.click(canvas.x + 570, canvas.y + 506);
        await settle(t.page, 400);
        const drawn = await t.page.evaluate(() => document.getElementById('canvas').getAttribute('data-panels'));
        assert(/\btune\b/.test(drawn), `the "Train it more" tab did not open: panels ${drawn}`);

        // 3 steps on the built-in English text.
        const r = await t.page.evaluate(() => attentionLab.tuneModel({ steps: 3 }));
        assert(r.ok && r.running, `tuneModel: ${short(r)}`);
        await settle(t.page, 300);
        if (t.opts.shots) await t.page.locator('#canvas').screenshot({ path: path.join(t.opts.shots, 'model-train-running-laptop.png') });
        const s1 = await untilStopped(t, 120);
        assertEq(s1.step, 3, 'steps after the run');
        assertEq(s1.losses.length, 3, 'losses');
        assertEq(s1.trained, true, 'trained');
        assert(s1.checksum !== s1.shippedChecksum, 'the weights did not change');
        const after = await headTrace(t);
        assert(after !== before, 'the head\'s trace is the same after training');

        // The CLI on the same folder and text: the same losses and weights, every bit.
        const site = t.opts.site;
        const native = await runTune(t.opts.attnlab, [path.join(site, 'model'), '--text-file', path.join(site, 'tune', 'en.txt'), '--steps', '3']);
        assertEq(native.shippedChecksum, s1.shippedChecksum, 'the shipped weights\' checksum, page vs CLI');
        assertEq(JSON.stringify(native.steps.map((x) => x.loss)), JSON.stringify(s1.losses), 'losses, page vs CLI');
        assertEq(native.checksum, s1.checksum, 'the trained weights\' checksum, page vs CLI');
        await settle(t.page, 500);
        if (t.opts.shots) await t.page.locator('#canvas').screenshot({ path: path.join(t.opts.shots, 'model-train-laptop.png') });

        // Stop: a long run stopped after its first step runs no further unit.
        const long = await t.page.evaluate(() => attentionLab.tuneModel({ steps: 200 }));
        assert(long.ok, `tuneModel 200: ${short(long)}`);
        const t0 = Date.now();
        for (;;) {
          const s = await t.page.evaluate(() => attentionLab.getTuneStatus());
          if (s.step >= 4) break;
          assert(Date.now() - t0 < 60000, `no step in 60 s: ${short(s)}`);
          await sleep(100);
        }
        const stopped = await t.page.evaluate(() => attentionLab.stopTune());
        assertEq(stopped.running, false, 'running after stopTune');
        await sleep(1500);
        const later = await t.page.evaluate(() => attentionLab.getTuneStatus());
        assertEq(later.step, stopped.step, 'steps after Stop');
        assertEq(later.unit, stopped.unit, 'units after Stop');
        assert(later.step < 203, `the run was not stopped: ${later.step}`);

        // Reset: the shipped weights, bit for bit.
        const reset = await t.page.evaluate(() => attentionLab.resetTune());
        assertEq(reset.trained, false, 'trained after reset');
        assertEq(reset.checksum, reset.shippedChecksum, 'checksum after reset');
        assertEq(reset.step, 0, 'steps after reset');
        assertEq(await headTrace(t), before, 'the trace after reset');
        assertClean(t);
      },
    },
    {
      name: 'train it more on a phone, in Russian: a text too short is refused in the panel; the built-in text trains',
      timeout: 300,
      context: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
      async run(t) {
        await openLab(t);
        await modelMode(t, { sentence: 'я люблю суши', layer: 0, head: 0, lang: 'ru', view: 'sentence', tuneText: 'own', tuneOwn: 'да' });
        const refused = await t.page.evaluate(() => attentionLab.tuneModel({ steps: 2 }));
        assertEq(refused.ok, false, 'a two-letter text');
        assertEq(refused.field, 'tuneOwn', 'the refused field');
        assert(/^tuneOwn: expected a text of at least 8 tokens, got \d+ tokens/.test(refused.error), `message: ${refused.error}`);
        await settle(t.page, 500);
        if (t.opts.shots) await t.page.locator('#canvas').screenshot({ path: path.join(t.opts.shots, 'model-train-phone-refused-ru.png') });
        const r = await t.page.evaluate(() => attentionLab.setState({ tuneText: 'auto' }));
        assert(r.ok, short(r));
        const ok = await t.page.evaluate(() => attentionLab.tuneModel({ steps: 2 }));
        assert(ok.ok, `tuneModel: ${short(ok)}`);
        const s = await untilStopped(t, 120);
        assertEq(s.step, 2, 'steps');
        const native = await runTune(t.opts.attnlab, [path.join(t.opts.site, 'model'), '--text-file', path.join(t.opts.site, 'tune', 'ru.txt'), '--steps', '2']);
        assertEq(JSON.stringify(native.steps.map((x) => x.loss)), JSON.stringify(s.losses), 'losses, page vs CLI (Russian text)');
        assertEq(native.checksum, s.checksum, 'checksum, page vs CLI (Russian text)');
        // The panel sits at the end of the Sentence tab on a phone: scroll down to it.
        const box = await t.page.locator('#canvas').boundingBox();
        await t.page.mouse.move(box.x + box.width / 2, box.y + box.height * 0.7);
        for (let k = 0; k < 8; k++) { await t.page.mouse.wheel(0, 600); await sleep(80); }
        await settle(t.page, 500);
        const drawn = await t.page.evaluate(() => document.getElementById('canvas').getAttribute('data-panels'));
        assert(/\btune\b/.test(drawn), `the panel is not drawn on the phone: panels ${drawn}`);
        if (t.opts.shots) await t.page.locator('#canvas').screenshot({ path: path.join(t.opts.shots, 'model-train-phone-ru.png') });
        assertClean(t);
      },
    },
  ];
}
