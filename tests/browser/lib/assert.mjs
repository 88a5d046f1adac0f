// Assertions that fail a test with a message (TestFailure), and the comparisons of traces and
// JSON values between the page and the native attnlab.

export class TestFailure extends Error {}
export function assert(cond, msg) { if (!cond) throw new TestFailure(msg); }
export function assertEq(actual, expected, what) {
  const a = JSON.stringify(actual), e = JSON.stringify(expected);
  if (a !== e) throw new TestFailure(`${what}: expected ${e}, got ${a}`);
}
export const short = (v, n = 300) => { const s = JSON.stringify(v); return s && s.length > n ? s.slice(0, n) + '…' : s; };

// Walks two JSON values; numbers must agree to `tol` (absolute). Returns {maxDiff, where, problems}.
export function compareJSON(a, b, tol, where = '$', acc = { maxDiff: 0, where: '', problems: [], numbers: 0 }) {
  const problem = (msg) => { if (acc.problems.length < 12) acc.problems.push(`${where}: ${msg}`); };
  if (typeof a === 'number' && typeof b === 'number') {
    acc.numbers++;
    const d = Math.abs(a - b);
    if (!(d <= tol)) problem(`${a} vs ${b} (diff ${d})`);
    if (d > acc.maxDiff || Number.isNaN(d)) { acc.maxDiff = Number.isNaN(d) ? Infinity : d; acc.where = where; }
  } else if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) problem(`array vs ${short(Array.isArray(a) ? b : a, 60)}`);
    else if (a.length !== b.length) problem(`length ${a.length} vs ${b.length}`);
    else for (let i = 0; i < a.length; i++) compareJSON(a[i], b[i], tol, `${where}[${i}]`, acc);
  } else if (a && b && typeof a === 'object' && typeof b === 'object') {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!(k in a)) problem(`.${k} only in the second (browser) value`);
      else if (!(k in b)) problem(`.${k} only in the first (native) value`);
      else compareJSON(a[k], b[k], tol, `${where}.${k}`, acc);
    }
  } else if (a !== b) {
    problem(`${short(a, 60)} vs ${short(b, 60)}`);
  }
  return acc;
}

// Sanity of a trace: rows of weights are probability vectors, shapes fit the tokens.
export function checkTrace(trace, what) {
  assert(trace && typeof trace === 'object', `${what}: getTrace() returned ${short(trace)}`);
  assert(trace.error === null || trace.error === undefined, `${what}: trace.error = ${short(trace.error)}`);
  const n = trace.tokens.length;
  assert(n > 0, `${what}: no tokens`);
  for (const key of ['X', 'Q', 'K', 'V', 'scores', 'scaled', 'weights', 'output']) {
    assert(Array.isArray(trace[key]) && trace[key].length === n, `${what}: trace.${key} should have ${n} rows, got ${short(trace[key], 80)}`);
  }
  // Normalizers other than these (sigmoid, none) do not make probability rows.
  const normalizer = (trace.config && trace.config.normalizer) || 'softmax';
  const probabilities = ['softmax', 'sparsemax', 'relunorm', 'hardmax'].includes(normalizer);
  for (let i = 0; i < n; i++) {
    const row = trace.weights[i];
    assert(row.length === n, `${what}: weights row ${i} has ${row.length} entries, expected ${n}`);
    assert(row.every((x) => typeof x === 'number' && Number.isFinite(x)), `${what}: weights row ${i} has non-numbers: ${short(row)}`);
    if (!probabilities) continue;
    const sum = row.reduce((s, x) => s + x, 0);
    assert(Math.abs(sum - 1) <= 1e-5, `${what}: weights row ${i} sums to ${sum}`);
    assert(row.every((x) => x >= 0 && x <= 1), `${what}: weights row ${i} has values outside [0,1]: ${short(row)}`);
    if (trace.config && trace.config.causal) {
      assert(row.every((x, j) => j <= i || x === 0), `${what}: causal mask: weights row ${i} attends to later tokens: ${short(row)}`);
    }
  }
  assert(trace.steps && Array.isArray(trace.steps.rows) && trace.steps.rows.length === n,
         `${what}: trace.steps.rows should have ${n} rows, got ${short(trace.steps, 120)}`);
}
