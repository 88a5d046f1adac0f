// The native attnlab, run on a state or input written as JSON: what the page's numbers are
// compared with, bit for bit.
import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { TestFailure } from './assert.mjs';

// Runs `attnlab <command> FILE [args...]` on `input` (written as JSON) and resolves to its stdout.
export function runNativeText(bin, command, input, tmpDir, tag, args = []) {
  const file = path.join(tmpDir, `${command}-${tag}.json`);
  fs.writeFileSync(file, JSON.stringify(input));
  return new Promise((resolve, reject) => {
    execFile(bin, [command, file, ...args], { maxBuffer: 64 << 20, timeout: 60000 }, (err, stdout, stderr) => {
      if (err) reject(new TestFailure(`${bin} ${command} ${file} failed: ${err.message} ${stderr}`.trim()));
      else resolve(stdout);
    });
  });
}

export async function runNative(bin, state, tmpDir, tag) {
  const stdout = await runNativeText(bin, 'trace', state, tmpDir, tag);
  try { return JSON.parse(stdout); } catch (e) { throw new TestFailure(`${bin} trace printed invalid JSON (${e.message}): ${stdout.slice(0, 200)}`); }
}
