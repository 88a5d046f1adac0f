// The address's throttle (web/js/url_state.js) on a clock of our own: the learner's changes
// (writeHashSoon) reach history.replaceState at most once per 250 ms and the last state is
// always written; a change after a quiet interval is written at once. Deterministic, unlike a
// drag in the page, whose frames on a busy machine come slower than the interval.
//   node tests/web/test_url_throttle.mjs [path/to/url_state.js]
import fs from 'node:fs';
import vm from 'node:vm';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const file = process.argv[2] || path.join(here, '../../web/js/url_state.js');

// One page: a clock that moves only when told, timers on that clock, the lab's state a counter.
function makePage() {
  const page = { now: 0, timers: [], state: 0, writes: [] };
  const ctx = {
    performance: { now: () => page.now },
    setTimeout: (fn, ms) => { page.timers.push({ at: page.now + Math.max(0, ms), fn }); return page.timers.length; },
    history: { state: null, replaceState: (s, t, hash) => { page.writes.push({ at: page.now, hash }); ctx.location.hash = hash; } },
    location: { hash: '' },
    fns: { getLink: () => '#state=' + page.state },
  };
  vm.createContext(ctx);
  vm.runInContext(fs.readFileSync(file, 'utf8'), ctx, { filename: file });
  ctx.hashEnabled = true;
  page.ctx = ctx;
  // moves the clock to t, running the timers that fall due on the way, in order
  page.advance = (t) => {
    for (;;) {
      page.timers.sort((a, b) => a.at - b.at);
      if (!page.timers.length || page.timers[0].at > t) break;
      const timer = page.timers.shift();
      page.now = timer.at; timer.fn();
    }
    page.now = t;
  };
  page.change = (t) => { page.advance(t); page.state++; ctx.writeHashSoon(); };
  return page;
}

let failed = 0;
function check(ok, what) { console.log(`${ok ? 'ok' : 'not ok'} - ${what}`); if (!ok) failed++; }

{ // a drag: a change every 16 ms for 2 s
  const p = makePage();
  for (let t = 0; t <= 2000; t += 16) p.change(t);
  p.advance(3000);
  const gaps = p.writes.slice(1).map((w, k) => w.at - p.writes[k].at);
  check(p.writes.length >= 8 && p.writes.length <= 10, `126 changes in 2 s: ${p.writes.length} writes (one per 250 ms)`);
  check(gaps.every(g => g >= 250), `the writes are 250 ms apart or more: ${gaps.join(' ')}`);
  check(p.writes[0].at === 0, 'the first change is written at once');
  check(p.ctx.location.hash === '#state=' + p.state, `the last state is written: ${p.ctx.location.hash} (state ${p.state})`);
}
{ // slow changes: each one written at once
  const p = makePage();
  for (let t = 0; t <= 3000; t += 300) p.change(t);
  check(p.writes.length === 11 && p.writes.every((w, k) => w.at === 300 * k), `11 changes 300 ms apart: written at once (${p.writes.map(w => w.at).join(' ')})`);
  check(p.timers.length === 0, 'no timer left waiting');
}
{ // a burst, then nothing: the trailing write carries the burst's last state
  const p = makePage();
  p.change(0); p.change(10); p.change(20); p.change(30);
  check(p.writes.length === 1, 'a burst of 4 changes in 30 ms: one write at once');
  p.advance(249);
  check(p.writes.length === 1, 'nothing more before 250 ms');
  p.advance(250);
  check(p.writes.length === 2 && p.writes[1].hash === '#state=4', `at 250 ms the last state: ${p.writes.map(w => w.hash).join(' ')}`);
}
{ // the address edited by hand while a write waits: the edit stays for its hashchange to apply
  const p = makePage();
  p.change(0); p.change(10);                  // written at once, then a write waits for 250 ms
  p.advance(100); p.ctx.location.hash = '#edited';
  p.advance(1000);
  check(p.writes.length === 1 && p.ctx.location.hash === '#edited',
        `an edit at 100 ms is not overwritten by the waiting write: ${p.ctx.location.hash}, ${p.writes.length} writes`);
  p.ctx.writeHash();                          // what the hashchange handler does after applying it
  p.change(2000);
  check(p.writes.length === 3 && p.ctx.location.hash === '#state=3', `after it, changes are written again: ${p.ctx.location.hash}`);
}
{ // the address is not written before the link state is applied
  const p = makePage();
  p.ctx.hashEnabled = false;
  p.change(0); p.advance(1000);
  check(p.writes.length === 0, 'no write before the lab applied its link');
}
console.log(failed ? `${failed} failed` : 'all passed');
process.exit(failed ? 1 : 0);
