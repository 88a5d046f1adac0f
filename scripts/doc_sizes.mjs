#!/usr/bin/env node
// Rewrites the payload table of docs/model-mode.md from a built site: what each download weighs,
// as served and gzipped at level 9 with Node's zlib (as the payload test and
// tests/browser/bench_payload.mjs measure), between the markers "<!-- payload sizes: begin" and
// "<!-- payload sizes: end -->". A browser test (features/course_author.mjs) fails when a size
// there is off by more than 2 % from the site it runs against.
// Usage: node scripts/doc_sizes.mjs [SITE]   (default: build/wasm-release/site)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const doc = path.join(root, 'docs', 'model-mode.md');
const site = process.argv[2] || path.join(root, 'build', 'wasm-release', 'site');

const modelFiles = () => ['MANIFEST.sha256', ...fs.readFileSync(path.join(site, 'model', 'MANIFEST.sha256'), 'utf8')
  .split('\n').filter((l) => l.length > 66).map((l) => l.slice(66).trim())].map((n) => 'model/' + n);
// What each download is made of (the default page's files are those the payload test sums).
const groups = [
  ['the default page', 'index.html, lab.css, lab.js, index.js, index.wasm', ['index.html', 'lab.css', 'lab.js', 'index.js', 'index.wasm']],
  ['the full build (model mode, the what-if tools)', 'index-model.js, index-model.wasm', ['index-model.js', 'index-model.wasm']],
  ['the trained model\'s files (model mode)', 'model/: the manifest and the files it lists', modelFiles()],
];
const size = (n) => (n < 1048576 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(2)} MB`);

const rows = ['| download | files | as served | gzipped |', '|---|---|---:|---:|'];
for (const [title, what, files] of groups) {
  let raw = 0, gz = 0;
  for (const f of files) {
    const bytes = fs.readFileSync(path.join(site, f));
    raw += bytes.length;
    gz += zlib.gzipSync(bytes, { level: 9 }).length;
  }
  rows.push(`| ${title} | ${what} | ${size(raw)} | ${size(gz)} |`);
}
const text = fs.readFileSync(doc, 'utf8');
const begin = text.indexOf('<!-- payload sizes: begin'), end = text.indexOf('<!-- payload sizes: end -->');
if (begin < 0 || end < 0) throw new Error(`${doc}: the payload markers are missing`);
const a = text.indexOf('\n', begin) + 1;
fs.writeFileSync(doc, text.slice(0, a) + rows.join('\n') + '\n' + text.slice(end));
console.log(`docs/model-mode.md: payload table rewritten from ${site}`);
