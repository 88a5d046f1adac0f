// Browser tests: the lab as a guest of a course page (issue 11). Render on demand, wheel and touch
// passing through to the page, several embeds on one page, typing on phones and with input
// methods, postMessage hygiene, auto-height, WebGL context loss. Run by run.mjs.
//
// A course page is served from a second origin (http://localhost:<another port>/, while the lab
// is on http://127.0.0.1:<port>/): the lab runs in a cross-origin iframe, as on a real course
// site. WebGL draw calls are counted in every frame by wrapping the draw functions
// (countDraws: an init script, so it also runs inside the cross-origin iframe).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { assert, assertEq, short, TestFailure } from '../lib/assert.mjs';
import { decodePNG, imageStats } from '../lib/png.mjs';
import { assertClean, assertNonBlank, openLab, pixelsDiffer, SENTENCE_BOX, settle, sleep } from '../lib/page.mjs';
import { coursePage, courseSite, labFrames } from '../lib/course.mjs';

export function pageCitizenTests() {

  async function countDraws(context) {
    await context.addInitScript(() => {
      window.__draws = 0;
      for (const C of [window.WebGL2RenderingContext, window.WebGLRenderingContext]) {
        if (!C) continue;
        for (const f of ['drawElements', 'drawArrays', 'drawElementsInstanced', 'drawArraysInstanced', 'drawRangeElements']) {
          const orig = C.prototype[f];
          if (typeof orig !== 'function') continue;
          C.prototype[f] = function (...args) { window.__draws++; return orig.apply(this, args); };
        }
      }
    });
  }

  // The lab frames of the page, in document order, once each is ready.
  const draws = (frame) => frame.evaluate(() => window.__draws);
  const frames = (frame, n = 2) => frame.evaluate((k) => new Promise((r) => { let i = 0; const f = () => (++i >= k ? r() : requestAnimationFrame(f)); requestAnimationFrame(f); }), n);

  return [
    {
      // Bytes, not time: the same build always gives the same sizes (time to ready is a
      // benchmark: scripts/bench.sh --payload).
      name: 'payload: every file the default page loads, gzipped, is at most 500 KB; nothing of the model',
      async run(t) {
        await openLab(t, 'index.html');
        await settle(t.page);
        const base = new URL(t.page.url()).origin + '/';
        const files = [...new Set(t.monitor.requests.filter((u) => u.startsWith(base)).map((u) => new URL(u).pathname.slice(1) || 'index.html'))];
        for (const want of ['index.html', 'lab.js', 'lab.css', 'index.js', 'index.wasm'])
          assert(files.includes(want), `${want} not among the files loaded: ${files.join(' ')}`);
        assert(!files.some((f) => /^model\/|^tune\/|index-model/.test(f)), `the default page loaded the model's files or code: ${files.join(' ')}`);
        assert(!files.some((f) => /^lessons\//.test(f)), `the default page loaded a lesson before one was needed: ${files.join(' ')}`);
        let gz = 0;
        const sizes = files.map((f) => {
          const z = zlib.gzipSync(fs.readFileSync(path.join(t.opts.site, f)), { level: 9 }).length;
          gz += z;
          return `${f} ${(z / 1024).toFixed(1)}`;
        });
        assert(gz <= 500 * 1024, `the default page is ${(gz / 1024).toFixed(1)} KB gzipped, over 500 KB: ${sizes.join(', ')}`);
        assertClean(t);
      },
    },
    {
      name: 'render on demand: a cross-origin embed draws nothing over 3 idle seconds, and again within a frame after a change',
      async run(t) {
        await countDraws(t.context);
        const site = await courseSite(t, { 'index.html': coursePage(t.base + 'index.html') });
        await t.page.goto(site, { waitUntil: 'load' });
        const [{ frame }] = await labFrames(t.page, 1);
        assert(new URL(frame.url()).origin !== new URL(t.page.url()).origin, 'the lab is not cross-origin');
        await settle(t.page, 1000);
        const d0 = await draws(frame);
        await sleep(3000);
        const d1 = await draws(frame);
        t.note(`draw calls: ${d0} until settled after load, ${d1 - d0} over 3 idle seconds`);
        assert(d0 > 0, 'the draw counter saw no draw at all (is the init script in the iframe?)');
        assertEq(d1 - d0, 0, 'draw calls over 3 idle seconds');
        // A state change through postMessage is drawn by the next frame.
        const r = await t.page.evaluate(() => askLab(0, { type: 'attentionLab:setState', state: { temperature: 0.5 } }));
        assert(r.result && r.result.ok, `setState via postMessage: ${short(r)}`);
        await frames(frame, 2);
        const d2 = await draws(frame);
        assert(d2 > d1, `no draw within a frame after setState (draws ${d1} -> ${d2})`);
        // ... and through the page API inside the frame, then idle again.
        await sleep(500);
        const d3 = await draws(frame);
        await frame.evaluate(() => attentionLab.setState({ sentence: 'the cat sat' }));
        await frames(frame, 2);
        assert(await draws(frame) > d3, 'no draw within a frame after attentionLab.setState');
        await sleep(500);
        const d4 = await draws(frame);
        await sleep(1500);
        assertEq(await draws(frame) - d4, 0, 'draw calls while idle after the changes');
        // Playing trains in the page's frames: frames go on, and stop with it.
        await frame.evaluate(() => attentionLab.setState({ view: 'training', train: { play: true } }));
        await sleep(1000);
        const d5 = await draws(frame);
        await sleep(1000);
        const d6 = await draws(frame);
        assert(d6 - d5 > 30, `only ${d6 - d5} draw calls in a second of training`);
        await frame.evaluate(() => attentionLab.setState({ train: { play: false } }));
        await sleep(500);
        const d7 = await draws(frame);
        await sleep(1500);
        assertEq(await draws(frame) - d7, 0, 'draw calls after pausing');
        assertClean(t);
      },
    },
    {
      name: 'render on demand: WebGL context loss and restore, the lab draws again',
      async run(t) {
        await countDraws(t.context);
        await openLab(t);
        await settle(t.page, 800);
        const lost = await t.page.evaluate(async () => {
          const c = document.getElementById('canvas');
          const gl = c.getContext('webgl2');
          const ext = gl.getExtension('WEBGL_lose_context');
          const seen = [];
          c.addEventListener('webglcontextlost', () => seen.push('lost'));
          c.addEventListener('webglcontextrestored', () => seen.push('restored'));
          ext.loseContext();
          await new Promise((r) => setTimeout(r, 500));
          const during = window.__draws;
          const set = attentionLab.setState({ temperature: 2 });   // the app goes on meanwhile
          await new Promise((r) => setTimeout(r, 300));
          const after = window.__draws;
          ext.restoreContext();
          await new Promise((r) => setTimeout(r, 1200));
          return { seen, during, after, restored: window.__draws, set, state: attentionLab.getState().temperature };
        });
        assertEq(lost.seen, ['lost', 'restored'], 'context events');
        assert(lost.set.ok && lost.state === 2, `setState while the context is lost: ${short(lost.set)}`);
        assertEq(lost.after - lost.during, 0, 'draw calls while the context is lost');
        assert(lost.restored > lost.after, 'no draw after the context was restored');
        await settle(t.page, 500);
        const png = decodePNG(await t.page.locator('#canvas').screenshot({ type: 'png' }));
        assertNonBlank(imageStats(png), 'after a restored context');
        assertClean(t);
      },
    },
    {
      name: 'wheel: over the lab\'s header it scrolls the course page; over a scrollable table, the table',
      async run(t) {
        const site = await courseSite(t, { 'index.html': coursePage(t.base + 'index.html', { width: 1200, height: 700 }) });
        await t.page.goto(site, { waitUntil: 'load' });
        const [{ frame, el }] = await labFrames(t.page, 1);
        // Many tokens: the steps table (bottom right) gets a scroll bar.
        const words = Array.from({ length: 24 }, (_, i) => 'w' + i).join(' ');
        const set = await frame.evaluate((s) => attentionLab.setState({ sentence: s, query: 3 }), words);
        assert(set.ok, `setState: ${short(set)}`);
        await settle(t.page, 800);
        let box = await el.boundingBox();
        // The header (title line): not scrollable, so the page scrolls.
        await t.page.mouse.move(box.x + 300, box.y + 12);
        const y0 = await t.page.evaluate(() => scrollY);
        await t.page.mouse.wheel(0, 240);
        await t.page.waitForFunction((y) => scrollY > y, y0, { timeout: 3000 }).catch(() => {});
        const y1 = await t.page.evaluate(() => scrollY);
        t.note(`wheel over the header: page scrollY ${y0} -> ${y1}`);
        assert(y1 > y0, `a wheel over the lab's header did not scroll the course page (scrollY ${y0} -> ${y1})`);
        // Back to the top, then a wheel over the steps table: the table scrolls, the page does not,
        // even when the reader last clicked the course page's own text (the lab's frame without
        // the focus, which once left the lab deaf to the mouse).
        await t.page.evaluate(() => scrollTo(0, 0));
        await frame.evaluate(() => document.getElementById('canvas').focus());
        await t.page.mouse.click(5, 5);
        assert(!(await frame.evaluate(() => document.hasFocus())), 'the lab kept the focus after a click on the course page');
        await sleep(300);
        box = await el.boundingBox();
        const at = { x: box.x + box.width * 0.62, y: box.y + box.height * 0.86 };
        await t.page.mouse.move(at.x, at.y);
        await settle(t.page, 400);
        const clip = { x: box.x + box.width * 0.3, y: box.y + box.height * 0.62, width: box.width * 0.68, height: box.height * 0.36 };
        const before = decodePNG(await t.page.screenshot({ clip }));
        const y2 = await t.page.evaluate(() => scrollY);
        await t.page.mouse.wheel(0, 200);
        // The lab scrolls in its next frames; on a loaded machine those can come late, so wait
        // (up to 5 s) for the table to move rather than for a fixed time.
        let d = 0;
        for (const t0 = Date.now(); Date.now() - t0 < 5000;) {
          await settle(t.page, 250);
          d = pixelsDiffer(before, decodePNG(await t.page.screenshot({ clip })));
          if (d > 0.02) break;
        }
        const y3 = await t.page.evaluate(() => scrollY);
        t.note(`wheel over the steps table: page scrollY ${y2} -> ${y3}, ${(100 * d).toFixed(1)}% of the table's pixels changed`);
        assertEq(y3, y2, 'page scrollY after a wheel over a scrollable table');
        assert(d > 0.02, 'the table did not scroll');
        if (t.opts.shots) await t.page.screenshot({ path: path.join(t.opts.shots, 'course-page-wheel.png') });
        assertClean(t);
      },
    },
    {
      name: 'touch (phone): a vertical drag over the lab\'s header scrolls the course page',
      context: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
      async run(t) {
        const site = await courseSite(t, { 'index.html': coursePage(t.base + 'index.html', { width: 370, height: 640 }) });
        await t.page.goto(site, { waitUntil: 'load' });
        const [{ frame, el }] = await labFrames(t.page, 1);
        await settle(t.page, 800);
        const box = await el.boundingBox();
        const cdp = await t.context.newCDPSession(t.page);
        const y0 = await t.page.evaluate(() => scrollY);
        const x = box.x + 150, ys = [box.y + 120, box.y + 100, box.y + 80, box.y + 60, box.y + 40, box.y + 20];
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y: ys[0] }] });
        for (const y of ys.slice(1)) { await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] }); await sleep(30); }
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
        await sleep(600);
        const y1 = await t.page.evaluate(() => scrollY);
        t.note(`touch drag over the lab: page scrollY ${y0} -> ${y1}`);
        assert(y1 > y0, `a vertical touch drag over the lab did not scroll the course page (scrollY ${y0} -> ${y1})`);
        assertEq(await frame.evaluate(() => attentionLab.status), 'ready', 'lab status');
        assertClean(t);
      },
    },
    {
      name: 'four embeds on one page stay independent: focus, paste, state, replies, idle at zero draws',
      context: { viewport: { width: 2600, height: 1680 } },
      async run(t) {
        await t.context.grantPermissions(['clipboard-read', 'clipboard-write']);
        await countDraws(t.context);
        const site = await courseSite(t, { 'index.html': coursePage(t.base + 'index.html', { width: 1280, height: 800, frames: 4 }) });
        await t.page.goto(site, { waitUntil: 'load' });
        const labs = await labFrames(t.page, 4);
        await settle(t.page, 1000);
        // Replies never cross: four requests at once, each answered by the iframe it was sent to.
        const sentences = ['one a', 'two b', 'three c', 'four d'];
        const replies = await t.page.evaluate((ss) => Promise.all(ss.map((s, i) => askLab(i, { type: 'attentionLab:setState', state: { sentence: s } }))), sentences);
        replies.forEach((r, i) => assert(r.fromAsked && r.result && r.result.ok && r.result.state.sentence === sentences[i], `reply ${i}: ${short(r)}`));
        for (let i = 0; i < 4; i++) assertEq(await labs[i].frame.evaluate(() => attentionLab.getState().sentence), sentences[i], `lab ${i}'s sentence`);
        // Keyboard focus goes to the one clicked.
        const b2 = await labs[2].el.boundingBox();
        await t.page.mouse.click(b2.x + 640, b2.y + 500);
        const focus = [];
        for (const { frame } of labs) focus.push(await frame.evaluate(() => document.hasFocus() && document.activeElement === document.getElementById('canvas')));
        assertEq(focus, [false, false, true, false], 'which lab has the keyboard focus after a click on lab 2');
        // Typing and pasting go to the focused one.
        await t.page.evaluate(() => navigator.clipboard.writeText(' кофе'));
        const b1 = await labs[1].el.boundingBox();
        await t.page.mouse.click(b1.x + SENTENCE_BOX.x, b1.y + SENTENCE_BOX.y);
        await labs[1].frame.waitForFunction(() => document.activeElement && document.activeElement.tagName === 'INPUT', null, { timeout: 5000 })
          .catch(() => { throw new TestFailure('a click on lab 1\'s sentence box did not focus its text input'); });
        await t.page.keyboard.press('End');
        await t.page.keyboard.type(' x', { delay: 30 });
        await t.page.keyboard.down('Control'); await t.page.keyboard.press('KeyV'); await t.page.keyboard.up('Control');
        await labs[1].frame.waitForFunction(() => / кофе$/.test(attentionLab.getState().sentence), null, { timeout: 5000 }).catch(() => {});
        const now = [];
        for (const { frame } of labs) now.push(await frame.evaluate(() => attentionLab.getState().sentence));
        t.note(`sentences after typing and pasting into lab 1: ${JSON.stringify(now)}`);
        assertEq(now, ['one a', 'two b x кофе', 'three c', 'four d'], 'sentences after typing and pasting into lab 1');
        // Then the page idles, with lab 1's text box still active: zero draws in all four.
        await sleep(1000);
        const d0 = [];
        for (const { frame } of labs) d0.push(await draws(frame));
        await sleep(3000);
        const d1 = [];
        for (const { frame } of labs) d1.push(await draws(frame));
        assertEq(d1.map((d, i) => d - d0[i]), [0, 0, 0, 0], 'draw calls of the four labs over 3 idle seconds');
        if (t.opts.shots) await t.page.screenshot({ path: path.join(t.opts.shots, 'four-embeds.png') });
        assertClean(t);
      },
    },
    {
      name: 'phone: a tap on the sentence box focuses a text input; «и чай» through the input method changes the sentence',
      context: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
      async run(t) {
        await openLab(t, 'index.html#view=sentence');
        await settle(t.page, 800);
        const box = PHONE_SENTENCE_BOX;
        await t.page.touchscreen.tap(box.x, box.y);
        await t.page.waitForFunction(() => document.activeElement && document.activeElement.tagName === 'INPUT', null, { timeout: 5000 })
          .catch(() => { throw new TestFailure(`a tap at (${box.x}, ${box.y}) did not focus a text input (focused: ${'?'})`); });
        const where = await t.page.evaluate(() => { const r = document.activeElement.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; });
        assert(Math.abs(where[1] + where[3] / 2 - box.y) < 30, `the text input is not over the sentence box: ${JSON.stringify(where)}`);
        const y0 = await t.page.evaluate(() => [scrollX, scrollY, visualViewport ? visualViewport.offsetTop : 0]);
        await t.page.keyboard.insertText(' и чай');
        await t.page.waitForFunction(() => attentionLab.getState().sentence === 'я люблю суши и чай', null, { timeout: 5000 })
          .catch(async () => { throw new TestFailure(`insertText(" и чай"): sentence is ${JSON.stringify(await t.page.evaluate(() => attentionLab.getState().sentence))}`); });
        // A composition (what phone keyboards and IMEs send): only the final text arrives.
        await t.page.evaluate(() => {
          const i = document.activeElement;
          i.dispatchEvent(new CompositionEvent('compositionstart', { data: '' }));
          for (const part of ['к', 'ко', 'коф', 'кофе']) {
            i.value = ' ' + part;
            i.dispatchEvent(new InputEvent('input', { data: part, inputType: 'insertCompositionText', isComposing: true }));
          }
          i.dispatchEvent(new CompositionEvent('compositionend', { data: 'кофе' }));
        });
        await t.page.waitForFunction(() => attentionLab.getState().sentence === 'я люблю суши и чай кофе', null, { timeout: 5000 })
          .catch(async () => { throw new TestFailure(`composition: sentence is ${JSON.stringify(await t.page.evaluate(() => attentionLab.getState().sentence))}`); });
        await t.page.keyboard.press('Backspace');
        await t.page.waitForFunction(() => attentionLab.getState().sentence === 'я люблю суши и чай коф', null, { timeout: 5000 })
          .catch(async () => { throw new TestFailure(`Backspace: sentence is ${JSON.stringify(await t.page.evaluate(() => attentionLab.getState().sentence))}`); });
        assertEq(await t.page.evaluate(() => [scrollX, scrollY, visualViewport ? visualViewport.offsetTop : 0]), y0, 'the page moved while typing');
        if (t.opts.shots) await t.page.screenshot({ path: path.join(t.opts.shots, 'phone-typing.png') });
        // A tap elsewhere closes the text input: the canvas has the focus again.
        await t.page.touchscreen.tap(195, 700);
        await t.page.waitForFunction(() => document.activeElement && document.activeElement.id === 'canvas', null, { timeout: 5000 })
          .catch(() => { throw new TestFailure('a tap elsewhere did not close the text input'); });
        assertClean(t);
      },
    },
    {
      name: 'postMessage hygiene: only the parent is answered, ?origins= limits the parents, auto-height is posted',
      async run(t) {
        const labUrl = t.base + 'index.html';
        const site = await courseSite(t, {
          'index.html': coursePage(labUrl, { extra: '<iframe id="other" src="sibling.html" style="width:10px;height:10px"></iframe>' }),
          'sibling.html': `<!doctype html><script>
            window.got = [];
            addEventListener('message', (ev) => window.got.push(ev.data));
            window.poke = () => parent.frames[0].postMessage({ type: 'attentionLab:getState', id: 'sibling' }, '*');
          </script>`,
        });
        const siteOrigin = new URL(site).origin;
        await t.page.goto(site, { waitUntil: 'load' });
        const [{ frame }] = await labFrames(t.page, 1);
        // The parent is answered; its own messages list ready and the preferred height.
        const ok = await t.page.evaluate(() => askLab(0, { type: 'attentionLab:getState' }));
        assert(ok.result && ok.result.sentence, `the parent got no answer: ${short(ok)}`);
        const msgs = await t.page.evaluate(() => labMessages.map((m) => m.data.type + (m.data.height ? ':' + m.data.height : '')));
        assert(msgs.includes('attentionLab:ready'), `no ready message: ${short(msgs)}`);
        await sleep(600);  // the height is posted once it has been still for 200 ms
        const later = await t.page.evaluate(() => labMessages.map((m) => m.data.type + (m.data.height ? ':' + m.data.height : '')));
        assert(later.some((m) => /^attentionLab:height:\d+$/.test(m)), `no height message: ${short(later)}`);
        // A sibling frame is not answered; nor is the lab's own window.
        const sibling = t.page.frames().find((f) => f.url().endsWith('sibling.html'));
        await sibling.evaluate(() => poke());
        await frame.evaluate(() => window.postMessage({ type: 'attentionLab:setState', state: { temperature: 3 }, id: 'self' }, '*'));
        await sleep(800);
        assertEq(await sibling.evaluate(() => window.got.length), 0, 'answers to a sibling frame');
        assertEq(await frame.evaluate(() => attentionLab.getState().temperature), 1, 'temperature after a message from the lab\'s own window');
        // Received text is never run: a "state" that is code stays a refused string.
        const evil = await t.page.evaluate(() => askLab(0, { type: 'attentionLab:setState', state: 'window.hacked = 1' }));
        assert(evil.result && evil.result.ok === false, `a string state: ${short(evil)}`);
        assertEq(await frame.evaluate(() => window.hacked), undefined, 'window.hacked');
        // ?origins=: a listed parent origin is answered, an unlisted one is not (no ready either).
        for (const [origins, answered] of [[siteOrigin, true], ['https://course.example,https://other.example', false]]) {
          await t.page.evaluate(({ src }) => { labMessages.length = 0; document.getElementById('lab0').src = src; },
                                { src: `${labUrl}?origins=${encodeURIComponent(origins)}` });
          await sleep(300);
          const [{ frame: f2 }] = await labFrames(t.page, 1);
          const r = await t.page.evaluate(() => askLab(0, { type: 'attentionLab:getState' }, 2500));
          const got = await t.page.evaluate(() => labMessages.map((m) => m.data.type));
          t.note(`?origins=${origins}: ${r.timeout ? 'no answer' : 'answered'}; messages ${JSON.stringify(got)}`);
          assertEq(!r.timeout, answered, `answered with ?origins=${origins}`);
          assertEq(got.includes('attentionLab:ready'), answered, `ready posted with ?origins=${origins}`);
          assertEq(await f2.evaluate(() => attentionLab.status), 'ready', 'the lab itself runs either way');
        }
        assertClean(t);
      },
    },
    {
      name: 'embed-example.html: auto-height resizes the iframes; several embeds',
      async run(t) {
        await t.page.goto(t.base + 'embed-example.html', { waitUntil: 'load' });
        const labs = await labFrames(t.page, 2);
        await t.page.waitForFunction(() => [...document.querySelectorAll('iframe')].every((f) => f.style.height && f.style.height !== ''), null, { timeout: 10000 })
          .catch(() => { throw new TestFailure('the example page did not set the iframes\' heights'); });
        const hs = await t.page.evaluate(() => [...document.querySelectorAll('iframe')].map((f) => [f.getBoundingClientRect().width, f.getBoundingClientRect().height]));
        t.note(`iframes (width, height): ${JSON.stringify(hs)}`);
        // Each the height of what its lab shows (docs/embedding.md): the phone layout's tabs and
        // header stacked are taller than a laptop's grid.
        for (const [w, hgt] of hs) assert(hgt >= 400 && hgt <= 1600 && hgt !== 780, `height of a ${w} px wide embed: ${hgt}`);
        const phone = hs.filter(([w]) => w < 820).map(([, h]) => h), laptop = hs.filter(([w]) => w >= 820).map(([, h]) => h);
        assert(phone.length && laptop.length && Math.min(...phone) > Math.max(...laptop), `phone embeds ${phone}, laptop embeds ${laptop}`);
        assertEq(labs.length >= 2, true, 'several embeds');
        assertClean(t);
      },
    },
  ];
}

// The sentence box in the phone layout (390 px wide, tab "Sentence": #view=sentence), CSS px,
// right of the default sentence's end.
const PHONE_SENTENCE_BOX = { x: 300, y: 122 };
