// A course page around the lab, served from a second origin (http://localhost:<another port>/,
// while the lab is on http://127.0.0.1:<port>/): the lab runs in a cross-origin iframe, as on a
// real course site. Used by the tests of the lab as a guest (page_citizen, course_author, flags).
import fs from 'node:fs';
import path from 'node:path';
import { assert, assertEq } from './assert.mjs';
import { sleep } from './page.mjs';
import { startServer } from './server.mjs';

// Serves `files` ({name: html}) from a new server reached as http://localhost:<port>/ (another
// origin and site than the lab's 127.0.0.1). Returns the base URL.
let outerCount = 0;
export async function courseSite(t, files) {
  const dir = path.join(t.tmp, `course-${++outerCount}`);
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, html] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), html);
  const server = await startServer(dir);
  t.onCleanup(() => server.close());
  const base = `http://localhost:${server.address().port}/`;
  t.allowOrigin(new URL(base).origin);
  return base;
}

export const filler = (n) => Array.from({ length: n }, (_, i) => `<p>Paragraph ${i + 1} of the course text. Attention weights are a probability distribution over the keys.</p>`).join('\n');

// A long course page with one lab iframe near the top (in view: browsers throttle offscreen
// cross-origin frames) and a listener that keeps the lab's messages for the test.
export function coursePage(labUrl, { width = 1000, height = 620, frames = 1, extra = '' } = {}) {
  const iframes = Array.from({ length: frames }, (_, i) =>
    `<iframe id="lab${i}" src="${labUrl}" title="Attention Lab ${i}" allow="clipboard-read; clipboard-write" style="width:${width}px;height:${height}px;border:0;display:${frames > 1 ? 'inline-block' : 'block'}"></iframe>`).join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"><title>Course</title>
<style>body{margin:8px;font:16px/1.5 sans-serif}</style></head><body>
<h1>A course page</h1>
${iframes}
${extra}
${filler(120)}
<script>
window.labMessages = [];
addEventListener('message', (ev) => {
const i = [...document.querySelectorAll('iframe')].findIndex((f) => f.contentWindow === ev.source);
window.labMessages.push({ from: i, origin: ev.origin, data: ev.data });
});
window.askLab = (i, msg, timeout = 15000) => new Promise((resolve) => {
const win = document.querySelectorAll('iframe')[i].contentWindow;
const id = 'q' + Math.random();
const onMsg = (ev) => {
  if (ev.data && ev.data.type === 'attentionLab:result' && ev.data.id === id) {
    removeEventListener('message', onMsg);
    resolve({ result: ev.data.result, fromAsked: ev.source === win });
  }
};
addEventListener('message', onMsg);
win.postMessage(Object.assign({ id }, msg), '*');
setTimeout(() => { removeEventListener('message', onMsg); resolve({ timeout: true }); }, timeout);
});
</script></body></html>`;
}

// The lab iframes of the page, in document order, each ready.
export async function labFrames(page, n) {
  let frames = [];
  const t0 = Date.now();
  while (Date.now() - t0 < 30000) {
    frames = page.frames().filter((f) => /\/index\.html/.test(f.url()));
    if (frames.length >= n) break;
    await sleep(100);
  }
  assert(frames.length >= n, `expected ${n} lab iframes, found ${frames.length}`);
  const handles = await page.$$('iframe');
  const ordered = [];
  for (const el of handles) {
    const f = await el.contentFrame();
    if (f && /\/index\.html/.test(f.url())) ordered.push({ frame: f, el });
  }
  for (const { frame } of ordered) {
    await frame.waitForFunction(() => !!window.attentionLab, null, { timeout: 30000 });
    const r = await frame.evaluate(() => attentionLab.ready.then(() => 'ready', (e) => 'rejected: ' + e.message));
    assertEq(r, 'ready', 'lab in the iframe');
  }
  return ordered;
}

