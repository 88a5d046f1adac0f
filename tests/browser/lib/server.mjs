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
export function startServer(root) {
  const rootAbs = path.resolve(root);
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://127.0.0.1');
      let rel;
      try { rel = decodeURIComponent(url.pathname); } catch { rel = null; }
      if (rel === null || rel.includes('\0')) { res.writeHead(400).end('bad request'); return; }
      let file = path.resolve(rootAbs, '.' + rel);
      if (file !== rootAbs && !file.startsWith(rootAbs + path.sep)) { res.writeHead(403).end('forbidden'); return; }
      let st = await fsp.stat(file).catch(() => null);
      if (st && st.isDirectory()) { file = path.join(file, 'index.html'); st = await fsp.stat(file).catch(() => null); }
      if (!st || !st.isFile()) { res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found'); return; }
      const body = await fsp.readFile(file);
      const headers = {
        'Content-Type': MIME[path.extname(file).toLowerCase()] || 'application/octet-stream',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      };
      if (!(server.noContentLength && file.endsWith('.wasm'))) headers['Content-Length'] = body.length;
      res.writeHead(200, headers);
      if (req.method === 'HEAD') res.end(); else res.end(body);
    } catch (e) {
      res.writeHead(500).end(String(e));
    }
  });
  server.noContentLength = false;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}
