// Browser tests: a lab configured for a lesson and shared (issue 11, items 3 and 4). The state's
// `hide` and `lock` rows in a cross-origin embed (hidden panels absent from the screen, locked
// controls refusing a click while the page API still changes them, a hidden view giving way),
// on a laptop and a phone; the share link and the iframe snippet reproducing the state when
// loaded; the header's Share button and its Copy (clipboard, or the text selected for copying
// by hand). Run by run.mjs.
//
// A course page is served from a second origin (http://localhost:<another port>/, while the lab
// is on http://127.0.0.1:<port>/), as in page_citizen.mjs.
import fs from 'node:fs';
import path from 'node:path';
import { assert, assertEq, short } from '../lib/assert.mjs';
import { decodePNG, imageStats } from '../lib/png.mjs';
import { assertClean, assertNonBlank, openLab, settle, sleep } from '../lib/page.mjs';
import { courseSite } from '../lib/course.mjs';

export function flagsTests() {

  const page = (body) => `<!doctype html><html><head><meta charset="utf-8"><title>Course</title>
<style>body{margin:0;font:16px/1.5 sans-serif}</style></head><body>
${body}
<script>
window.askLab = (msg, timeout = 15000) => new Promise((resolve) => {
  const win = document.querySelector('iframe').contentWindow;
  const id = 'q' + Math.random();
  const onMsg = (ev) => {
    if (ev.data && ev.data.type === 'attentionLab:result' && ev.data.id === id) { removeEventListener('message', onMsg); resolve(ev.data.result); }
  };
  addEventListener('message', onMsg);
  win.postMessage(Object.assign({ id }, msg), '*');
  setTimeout(() => { removeEventListener('message', onMsg); resolve({ timeout: true }); }, timeout);
});
</script></body></html>`;
  const iframe = (src, w, h) => `<iframe src="${src}" title="Attention Lab" allow="clipboard-write" style="display:block;width:${w}px;height:${h}px;border:0"></iframe>`;

  async function labFrame(p) {
    const t0 = Date.now();
    let frame = null;
    while (!frame && Date.now() - t0 < 30000) {
      frame = p.frames().find((f) => /\/index\.html/.test(f.url()));
      if (!frame) await sleep(100);
    }
    assert(frame, 'no lab iframe');
    await frame.waitForFunction(() => !!window.attentionLab, null, { timeout: 30000 });
    assertEq(await frame.evaluate(() => attentionLab.ready.then(() => 'ready', (e) => 'rejected: ' + e.message)), 'ready', 'lab in the iframe');
    return frame;
  }
  const panels = (frame) => frame.evaluate(() => (document.getElementById('canvas').getAttribute('data-panels') || '').split(' ').filter(Boolean).sort());

  // A lesson's embed: no header, no Training or Normalization tab, no vectors or information
  // panel; the sentence and the settings locked; the weights in front.
  const LESSON = 'hide=header,training,normalization,vectors,information&lock=sentence,settings&view=weights';
  // In that layout (1280x800, no header): the "random W_Q, W_K, W_V" radio button and the chip «суши».
  const RANDOM_RADIO = { x: 30, y: 252 };
  const SUSHI_CHIP = { x: 128, y: 101 };

  // Clicks at (x, y) of the iframe; returns the lab's state after it.
  async function clickAt(t, el, frame, at) {
    const box = await el.boundingBox();
    await t.page.mouse.click(box.x + at.x, box.y + at.y);
    await settle(t.page, 400);
    return frame.evaluate(() => attentionLab.getState());
  }

  return [
    {
      name: 'lesson flags: a cross-origin embed with #hide, #lock and #view shows what is left; locked controls refuse clicks',
      context: { viewport: { width: 1300, height: 820 } },
      async run(t) {
        for (const locked of [true, false]) {
          const hash = locked ? LESSON : LESSON.replace(/&lock=[^&]*/, '');
          const site = await courseSite(t, { 'index.html': page(iframe(`${t.base}index.html#${hash}`, 1280, 800)) });
          await t.page.goto(site, { waitUntil: 'load' });
          const frame = await labFrame(t.page);
          const el = await t.page.$('iframe');
          await settle(t.page, 800);
          const s0 = await frame.evaluate(() => attentionLab.getState());
          assertEq(s0.hide, 'header,training,normalization,vectors,information', 'getState().hide');
          assertEq(s0.lock, locked ? 'sentence,settings' : '', 'getState().lock');
          assertEq(s0.view, 'weights', 'the view from the link');
          // Hidden panels are absent: the lab reports the panels it drew (data-panels).
          assertEq(await panels(frame), ['heatmap', 'sentence', 'settings', 'steps'], 'panels drawn');
          const png = await el.screenshot({ type: 'png' });
          if (t.opts.shots) fs.writeFileSync(path.join(t.opts.shots, `flags-lesson-${locked ? 'locked' : 'unlocked'}.png`), png);
          assertNonBlank(imageStats(decodePNG(png)), 'the lesson embed');
          // A click on "random" and on «суши»: refused while locked, taken otherwise (the control
          // case shows that the click lands on the controls).
          const s1 = await clickAt(t, el, frame, RANDOM_RADIO);
          const s2 = await clickAt(t, el, frame, SUSHI_CHIP);
          if (locked) {
            assertEq(s1.projection, 'identity', 'projection after a click on the locked "random"');
            assertEq(s2.query, 1, 'query after a click on the locked chip «суши»');
            // The course page still changes locked settings (page API and postMessage).
            const r = await frame.evaluate(() => attentionLab.setState({ projection: 'random', query: 2 }));
            assert(r.ok && r.state.projection === 'random' && r.state.query === 2, `setState on locked settings: ${short(r)}`);
            const m = await t.page.evaluate(() => askLab({ type: 'attentionLab:setState', state: { temperature: 0.5 } }));
            assert(m.ok && m.state.temperature === 0.5, `postMessage setState on a locked setting: ${short(m)}`);
          } else {
            assertEq(s1.projection, 'random', 'projection after a click on "random" (not locked)');
            assertEq(s2.query, 2, 'query after a click on the chip «суши» (not locked)');
          }
          // A refused name: the one wording, and the flags stay.
          const bad = await frame.evaluate(() => attentionLab.setState({ hide: 'sentence,foo' }));
          assert(!bad.ok && bad.field === 'hide' && /^hide: expected a list of "header", "share", .*, got "foo"$/.test(bad.error),
                 `hide: "foo": ${short(bad)}`);
          assertEq((await frame.evaluate(() => attentionLab.getState())).hide, s0.hide, 'hide after a refusal');
        }
        assertClean(t);
      },
    },
    {
      name: 'lesson flags: a hidden view gives way, a lesson step does not un-hide, hidden tabs leave the phone\'s tab bar',
      context: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
      async run(t) {
        await openLab(t, 'index.html#hide=normalization,steps,mask&lock=settings&view=steps');
        await settle(t.page, 800);
        const drawn = () => t.page.evaluate(() => document.getElementById('canvas').getAttribute('data-panels'));
        assertEq(await drawn(), 'heatmap', 'phone: the hidden view "steps" gives way to the weights');
        if (t.opts.shots) await t.page.locator('#canvas').screenshot({ path: path.join(t.opts.shots, 'flags-phone.png') });
        // The lesson: step 4 shows the steps view; hidden, it stays hidden.
        const r = await t.page.evaluate(() => attentionLab.setState({ lesson: 4 }));
        assert(r.ok && r.state.hide === 'normalization,steps,mask', `lesson 4: ${short(r)}`);
        await settle(t.page, 600);
        const p = await drawn();
        assert(!/\bsteps\b|\bnormalization\b/.test(p), `a hidden panel drawn during the lesson: ${p}`);
        assert(/\blesson\b/.test(p), `the lesson card is missing: ${p}`);
        if (t.opts.shots) await t.page.locator('#canvas').screenshot({ path: path.join(t.opts.shots, 'flags-phone-lesson.png') });
        // Every step, hidden parts and all: no refusal, no crash, never a hidden panel.
        for (let k = 1; k <= 7; k++) {
          const s = await t.page.evaluate((step) => attentionLab.setState({ lesson: step }), k);
          assert(s.ok, `lesson ${k}: ${short(s)}`);
          await settle(t.page, 150);
          const q = await drawn();
          assert(!/\bsteps\b|\bnormalization\b/.test(q), `step ${k} drew a hidden panel: ${q}`);
        }
        // hide=lesson removes the lesson card (the page drives the steps itself).
        await t.page.evaluate(() => attentionLab.setState({ hide: 'lesson,normalization,steps,mask' }));
        await settle(t.page, 400);
        assert(!/\blesson\b/.test(await drawn()), 'hide=lesson: the lesson card is still drawn');
        assertClean(t);
      },
    },
    {
      name: 'share: the link and the iframe snippet reproduce the state when loaded (cross-origin embed)',
      async run(t) {
        const site = await courseSite(t, { 'index.html': page(iframe(`${t.base}index.html#hide=normalization&lock=sentence`, 1200, 700)) });
        await t.page.goto(site, { waitUntil: 'load' });
        const frame = await labFrame(t.page);
        const set = await frame.evaluate(() => attentionLab.setState({ sentence: 'the cat sat on the mat', query: 2, temperature: 0.5,
                                                                     view: 'vectors', lang: 'ru', hide: 'normalization,mask', train: { lr: 0.03 } }));
        assert(set.ok, `setState: ${short(set)}`);
        const state = await frame.evaluate(() => attentionLab.getState());
        const link = await t.page.evaluate(() => askLab({ type: 'attentionLab:getLink' }));
        const snippet = await t.page.evaluate(() => askLab({ type: 'attentionLab:getEmbedSnippet' }));
        assertEq(link, await frame.evaluate(() => attentionLab.getLink()), 'getLink via postMessage and the page API');
        assert(typeof link === 'string' && link.startsWith(t.base + 'index.html#') && /&hide=normalization,mask(&|$)/.test(link) &&
               /&lock=sentence(&|$)/.test(link), `link: ${link}`);
        assert(typeof snippet === 'string' && snippet.startsWith('<iframe src="' + t.base + 'index.html#') &&
               /attentionLab:height/.test(snippet), `snippet: ${short(snippet, 500)}`);
        t.note(`link: ${link.length} characters; snippet: ${snippet.length}`);
        // The link, opened in a new page.
        const p2 = await t.context.newPage();
        await p2.goto(link, { waitUntil: 'load' });
        await p2.waitForFunction(() => window.attentionLab && attentionLab.status === 'ready', null, { timeout: 30000 });
        assertEq(await p2.evaluate(() => attentionLab.getState()), state, 'the state from the share link');
        await p2.close();
        // The snippet, pasted into another course page (its iframe starts 300 px tall: the
        // snippet's script takes the height the lab asks for).
        const site2 = await courseSite(t, { 'index.html': page('<h1>Pasted</h1>\n' + snippet.replace('height:780px', 'height:300px')) });
        const p3 = await t.context.newPage();
        await p3.goto(site2, { waitUntil: 'load' });
        const f3 = await labFrame(p3);
        assertEq(await f3.evaluate(() => attentionLab.getState()), state, 'the state from the snippet');
        await p3.waitForFunction(() => /^\d+px$/.test(document.querySelector('iframe').style.height) && document.querySelector('iframe').style.height !== '300px', null, { timeout: 10000 })
          .catch(() => assert(false, 'the snippet did not resize its iframe to the height the lab asked for'));
        await p3.close();
        assertClean(t);
      },
    },
    {
      name: 'share: the header\'s Share button opens the popup; Copy puts the link on the clipboard, or selects it for copying by hand',
      async run(t) {
        // Not permitted: the text is selected in a box over the lab, for Ctrl+C.
        await t.page.addInitScript(() => {
          if (navigator.clipboard) navigator.clipboard.writeText = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
        });
        await openLab(t, 'index.html#hide=normalization');
        await settle(t.page, 600);
        await t.page.mouse.click(SHARE_BUTTON.x, SHARE_BUTTON.y);
        await settle(t.page, 500);
        const p = await t.page.evaluate(() => document.getElementById('canvas').getAttribute('data-panels'));
        assert(/\bshare\b/.test(p), `the share popup is not drawn: ${p}`);
        if (t.opts.shots) await t.page.screenshot({ path: path.join(t.opts.shots, 'flags-share-en.png') });
        await t.page.mouse.click(COPY_LINK.x, COPY_LINK.y);
        await t.page.waitForFunction(() => { const b = document.getElementById('copy-box'); return b && !b.hidden; }, null, { timeout: 5000 })
          .catch(() => assert(false, 'no copy box after a refused copy'));
        const box = await t.page.evaluate(() => {
          const a = document.querySelector('#copy-box textarea');
          return { value: a.value, start: a.selectionStart, end: a.selectionEnd, focused: document.activeElement === a,
                   text: document.getElementById('copy-box').textContent, link: attentionLab.getLink() };
        });
        assertEq(box.value, box.link, 'the text in the copy box');
        assert(box.focused && box.start === 0 && box.end === box.value.length, `the text is not selected: ${short(box)}`);
        await settle(t.page, 300);
        if (t.opts.shots) await t.page.screenshot({ path: path.join(t.opts.shots, 'flags-share-copy-by-hand.png') });
        // Permitted: on the clipboard.
        const origin = new URL(t.base).origin;
        await t.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
        const p2 = await t.context.newPage();
        await p2.goto(t.base + 'index.html#hide=normalization&lang=ru&lock=settings', { waitUntil: 'load' });
        await p2.waitForFunction(() => window.attentionLab && attentionLab.status === 'ready', null, { timeout: 30000 });
        await settle(p2, 600);
        await p2.mouse.click(SHARE_BUTTON_RU.x, SHARE_BUTTON_RU.y);
        await settle(p2, 500);
        await p2.mouse.click(COPY_LINK_RU.x, COPY_LINK_RU.y);
        await settle(p2, 500);
        const clip = await p2.evaluate(async () => ({ text: await navigator.clipboard.readText(), link: attentionLab.getLink() }));
        assertEq(clip.text, clip.link, 'the clipboard after Copy');
        if (t.opts.shots) await p2.screenshot({ path: path.join(t.opts.shots, 'flags-share-ru.png') });
        await p2.close();
        assertClean(t);
      },
    },
  ];
}

// The header's Share button and the popup's first Copy (laptop 1280x800, no lesson open).
const SHARE_BUTTON = { x: 1034, y: 15 };
const COPY_LINK = { x: 350, y: 141 };
const SHARE_BUTTON_RU = { x: 1010, y: 15 };
const COPY_LINK_RU = { x: 368, y: 141 };
