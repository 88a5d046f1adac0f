// A static HTTP server for the built site on 127.0.0.1 (random port), shared by the browser
// tests (run.mjs) and the training benchmark (bench.mjs). Nothing outside `root` is served.
import http from 'node:http';
import fsp from 'node:fs/promises';
import path from 'node:path';

const MIME = {
  '.html': 'text/html; charset=utf-8', '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm', '.data': 'application/octet-stream', '.map': 'application/json; charset=utf-8',
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon', '.webp': 'image/webp', '.txt': 'text/plain; charset=utf-8', '.md': 'text/markdown; charset=utf-8',
  '.ttf': 'font/ttf', '.otf': 'font/otf', '.woff': 'font/woff', '.woff2': 'font/woff2',
};

// Resolves to a listening http.Server. server.noContentLength = true serves index.wasm without
// Content-Length (chunked), a test hook for the loader's progress fallback.
// `mounts` maps a path prefix to another folder (the GPT-2 checkpoints: {'/fixtures/': DIR}).
// Like a model host, files answer single HTTP Range requests (206, Content-Range) and carry an
// ETag. Test hooks in the path, before a mount's prefix: /norange/ ignores Range (the whole file,
// 200), /slow/ sends 64 KB every 40 ms (a download long enough to cancel).
export function startServer(root, mounts = {}) {
  const rootAbs = path.resolve(root);
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://127.0.0.1');
      let rel;
      try { rel = decodeURIComponent(url.pathname); } catch { rel = null; }
      if (rel === null || rel.includes('\0')) { res.writeHead(400).end('bad request'); return; }
      let ranges = true, slow = false;
      for (;;) {
        if (rel.startsWith('/norange/')) { ranges = false; rel = rel.slice(8); }
        else if (rel.startsWith('/slow/')) { slow = true; rel = rel.slice(5); }
        else break;
      }
      let base = rootAbs;
      for (const [prefix, dir] of Object.entries(mounts)) {
        if (rel.startsWith(prefix)) { base = path.resolve(dir); rel = '/' + rel.slice(prefix.length); break; }
      }
      server.requests.push({ path: url.pathname, range: req.headers.range || null });
      let file = path.resolve(base, '.' + rel);
      if (file !== base && !file.startsWith(base + path.sep)) { res.writeHead(403).end('forbidden'); return; }
      let st = await fsp.stat(file).catch(() => null);
      if (st && st.isDirectory()) { file = path.join(file, 'index.html'); st = await fsp.stat(file).catch(() => null); }
      if (!st || !st.isFile()) { res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found'); return; }
      const size = st.size;
      const headers = {
        'Content-Type': MIME[path.extname(file).toLowerCase()] || 'application/octet-stream',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        'Accept-Ranges': ranges ? 'bytes' : 'none',
        'ETag': `"${st.size}-${Math.floor(st.mtimeMs)}"`,
      };
      let status = 200, body;
      const m = ranges && /^bytes=(\d+)-(\d*)$/.exec(req.headers.range || '');
      if (m) {  // only those bytes are read (a test's sparse file of gigabytes is never read whole)
        const a = Number(m[1]), b = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
        if (a >= size || b < a) {
          res.writeHead(416, { 'Content-Range': `bytes */${size}` }).end();
          return;
        }
        headers['Content-Range'] = `bytes ${a}-${b}/${size}`;
        const fh = await fsp.open(file, 'r');
        try {
          body = Buffer.alloc(b - a + 1);
          await fh.read(body, 0, body.length, a);
        } finally {
          await fh.close();
        }
        status = 206;
      } else {
        body = await fsp.readFile(file);
      }
      if (!(server.noContentLength && file.endsWith('.wasm'))) headers['Content-Length'] = body.length;
      res.writeHead(status, headers);
      if (req.method === 'HEAD') { res.end(); return; }
      if (!slow) { res.end(body); return; }
      for (let at = 0; at < body.length && !res.destroyed; at += 65536) {
        res.write(body.subarray(at, at + 65536));
        await new Promise((r) => setTimeout(r, 40));
      }
      res.end();
    } catch (e) {
      if (!res.headersSent) res.writeHead(500).end(String(e)); else res.destroy();
    }
  });
  server.noContentLength = false;
  server.requests = [];  // {path, range} of every request, in order
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}
