// Loading: the API before ready, a server without Content-Length, and the plain-HTML panel when
// loading fails (broken wasm, HTTP 404, no WebGL2, no WebAssembly).
import path from 'node:path';
import { assert, assertEq } from '../lib/assert.mjs';
import { assertClean } from '../lib/page.mjs';


export const loadingTests = [
  {
    name: 'before ready: API throws "still loading"; no Content-Length still loads',
    async run(t) {
      t.server.noContentLength = true;
      let release;
      const gate = new Promise((r) => { release = r; });
      await t.page.route('**/index.wasm', async (route) => { await gate; await route.continue(); });
      await t.page.goto(t.base + 'index.html', { waitUntil: 'load' });
      await t.page.waitForFunction(() => !!window.attentionLab, null, { timeout: 15000 });
      const early = await t.page.evaluate(() => {
        const msg = (f) => { try { f(); return 'no exception'; } catch (e) { return e.message; } };
        const l = document.getElementById('loader');
        return { status: attentionLab.status, get: msg(() => attentionLab.getState()), set: msg(() => attentionLab.setState({ query: 0 })),
                 trace: msg(() => attentionLab.getTrace()), loader: !!l && getComputedStyle(l).display !== 'none',
                 text: document.getElementById('loader-text').textContent, isPromise: attentionLab.ready instanceof Promise };
      });
      release();
      assertEq(early.status, 'loading', 'status before the wasm arrives');
      assertEq([early.get, early.set, early.trace], Array(3).fill('Attention Lab is still loading'), 'errors before ready');
      assert(early.loader, 'no loading overlay while index.wasm downloads');
      assert(early.isPromise, 'attentionLab.ready is not a Promise');
      const r = await t.page.evaluate(() => attentionLab.ready.then(() => 'ready', (e) => 'rejected: ' + e.message));
      assertEq(r, 'ready', 'attentionLab.ready without Content-Length');
      const wasm = t.monitor.responses.find((x) => x.url.endsWith('/index.wasm'));
      assert(wasm && !('content-length' in wasm.headers), `index.wasm was served with Content-Length (${wasm && wasm.headers['content-length']})`);
      assertClean(t);
    },
  },
  {
    name: 'load failures show a plain-HTML panel (broken wasm, HTTP 404, no WebGL2, no WebAssembly)',
    async run(t) {
      const variants = [
        ['broken wasm', (p) => p.route('**/index.wasm', (r) => r.fulfill({ status: 200, contentType: 'application/wasm', body: 'this is not wasm' })), /Attention Lab could not start/, 'error-broken-wasm.png'],
        ['HTTP 404', (p) => p.route('**/index.wasm', (r) => r.fulfill({ status: 404, contentType: 'text/plain', body: 'nope' })), /404/, null],
        ['missing index.js', (p) => p.route('**/index.js', (r) => r.fulfill({ status: 404, contentType: 'text/plain', body: 'nope' })), /index\.js/, null],
        ['no WebGL2', (p) => p.addInitScript(() => {
          const orig = HTMLCanvasElement.prototype.getContext;
          HTMLCanvasElement.prototype.getContext = function (type, ...args) { return type === 'webgl2' ? null : orig.call(this, type, ...args); };
        }), /WebGL2[\s\S]*WebGL2/, 'error-no-webgl2.png'],
        ['no WebAssembly', (p) => p.addInitScript(() => { delete window.WebAssembly; }), /WebAssembly[\s\S]*WebAssembly/, null],
      ];
      for (const [name, setup, expect, shot] of variants) {
        const page = await t.context.newPage();
        await setup(page);
        await page.goto(t.base + 'index.html', { waitUntil: 'load' });
        const r = await page.evaluate(() => window.attentionLab.ready.then(() => 'ready', (e) => 'rejected: ' + e.message));
        assert(r.startsWith('rejected'), `${name}: attentionLab.ready ${r}`);
        const panel = await page.evaluate(() => {
          const m = document.getElementById('message');
          return { visible: !!m && !m.hidden && getComputedStyle(m).display !== 'none', text: m ? m.innerText : '', status: attentionLab.status,
                   reload: !!(m && m.querySelector('a.reload')), loader: getComputedStyle(document.getElementById('loader')).display !== 'none' };
        });
        assert(panel.visible, `${name}: no message panel`);
        assert(expect.test(panel.text), `${name}: message does not match ${expect}: ${panel.text.slice(0, 300)}`);
        assert(/[а-яё]/i.test(panel.text), `${name}: no Russian text in the message`);
        assertEq(panel.status, 'error', `${name}: status`);
        assert(!panel.loader, `${name}: loading overlay still shown`);
        if (/wasm|404|index/.test(name)) assert(panel.reload, `${name}: no reload link`);
        if (shot && t.opts.shots) await page.screenshot({ path: path.join(t.opts.shots, shot) });
        await page.close();
      }
      assert(t.monitor.pageErrors.length === 0, `uncaught page error(s): ${t.monitor.pageErrors.slice(0, 3).join(' | ')}`);
    },
  },
];
