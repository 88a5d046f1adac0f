// The page under test: opening it, letting it draw, its canvas as statistics, and the checks every
// test ends with (no console error, no foreign request).
import fs from 'node:fs';
import path from 'node:path';
import { TestFailure, assert } from './assert.mjs';
import { decodePNG, imageStats } from './png.mjs';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export const LAPTOP = { width: 1280, height: 800 };
export const SENTENCE_BOX = { x: 300, y: 101 };  // the sentence text box in the laptop layout (CSS px)
export const RUN_CURVES_BUTTON = { x: 500, y: 449 };  // "Run the experiment" on the Normalization tab, laptop layout
export const PLAY_BUTTON = { x: 65, y: 101 };        // ▶ Play / ▮▮ Pause on the Training tab, laptop layout (CSS px)
export const RUN_STEPS_BUTTON = { x: 226, y: 101 };  // "+500 steps" next to it
export const VERB_OBJECT_STEPS = 300;             // «люблю» must put >= 0.8 of its weight on «суши» by then

// Loads the page and waits until attentionLab.ready settles; throws with the page's message
// if it rejected.
export async function openLab(t, suffix = 'index.html') {
  // A real load every time: going from index.html#a to index.html#b would only change the hash.
  if (t.page.url() !== 'about:blank') await t.page.goto('about:blank');
  await t.page.goto(t.base + suffix, { waitUntil: 'load' });
  await t.page.waitForFunction(() => !!window.attentionLab, null, { timeout: 15000 });
  const r = await t.page.evaluate(() => window.attentionLab.ready.then(() => 'ready', (e) => 'rejected: ' + (e && e.message)));
  if (r !== 'ready') {
    const panel = await t.page.locator('#message').textContent().catch(() => '');
    throw new TestFailure(`attentionLab.ready ${r}; page shows: ${(panel || '').trim().slice(0, 300)}`);
  }
}

// Waits for a few animation frames so that the lab has drawn the current state.
export async function settle(page, ms = 1200) {
  await page.evaluate(() => new Promise((r) => { let n = 0; const f = () => (++n >= 5 ? r() : requestAnimationFrame(f)); requestAnimationFrame(f); }));
  await sleep(ms);
}

export async function canvasStats(t, shotName) {
  const png = await t.page.locator('#canvas').screenshot({ type: 'png' });
  if (shotName && t.opts.shots) fs.writeFileSync(path.join(t.opts.shots, shotName), png);
  return imageStats(decodePNG(png));
}

// The ids of the panels the lab drew in its last frame ("steps heatmap ..."), from the canvas's
// data-panels attribute (src/platform: ReportPanelsDrawn).
export async function panelsDrawn(t) {
  return t.page.evaluate(() => document.getElementById('canvas').getAttribute('data-panels'));
}

// The fraction of pixels that differ clearly (sum of |ΔR|+|ΔG|+|ΔB| > 30) between two pictures.
export function pixelsDiffer(a, b) {
  if (a.width !== b.width || a.height !== b.height) return 1;
  let n = 0;
  for (let i = 0; i < a.data.length; i += 4) if (Math.abs(a.data[i] - b.data[i]) + Math.abs(a.data[i + 1] - b.data[i + 1]) + Math.abs(a.data[i + 2] - b.data[i + 2]) > 30) n++;
  return n / (a.width * a.height);
}

export function assertNonBlank(stats, what) {
  assert(stats.distinct >= 48 && stats.nonBackground >= 0.02,
         `${what}: canvas looks blank (${stats.width}x${stats.height}, ${stats.distinct} distinct colours, ` +
         `${(100 * stats.nonBackground).toFixed(2)}% non-background pixels, background ${stats.background})`);
}

// No console errors, no uncaught exceptions, no request outside the server's origin, no HTTP errors.
export function assertClean(t) {
  const m = t.monitor;
  assert(m.pageErrors.length === 0, `uncaught page error(s): ${m.pageErrors.slice(0, 3).join(' | ')}`);
  assert(m.consoleErrors.length === 0, `console error(s): ${m.consoleErrors.slice(0, 3).join(' | ')}`);
  assert(m.foreign.length === 0, `request(s) outside ${t.base}: ${m.foreign.slice(0, 3).join(' ')}`);
  assert(m.httpErrors.length === 0, `HTTP error(s): ${m.httpErrors.slice(0, 3).join(' ')}`);
}

// The seed's example (../shared/seed): the state the lab opens on.
export const SEED = { sentence: 'я люблю суши', query: 1, projection: 'identity' };
