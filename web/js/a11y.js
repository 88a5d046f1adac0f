// Accessibility: the attention weights as a visually hidden table for screen readers, rebuilt
// after every change, and prefers-reduced-motion (a link's training does not start by itself).

// Accessibility (issue 11.9). The canvas is one picture to a screen reader: the weights are
// also a visually hidden table (the whole matrix up to WHOLE_MATRIX_MAX tokens, else the
// query's row), rebuilt from getTrace() after every change, in the lab's language, in a polite
// live region. Keyboard: Dear ImGui's navigation (Tab, arrows, Enter, Space) is on
// (src/platform/main.cpp). prefers-reduced-motion: no training starts by itself at load (a
// link's train.play), the CSS has no animations; training the learner starts still updates.
var WHOLE_MATRIX_MAX = 12;
var weightsTableEl = null, weightsTimer = 0;

function updateWeightsTable() {
  clearTimeout(weightsTimer);
  weightsTimer = setTimeout(buildWeightsTable, 120);   // a dragged slider changes the state every frame
}

function buildWeightsTable() {
  if (status !== 'ready') return;
  var trace, state;
  try { trace = rawGetTrace(); state = rawGetState(); } catch (e) { return; }
  if (!weightsTableEl) {
    weightsTableEl = el('div', { id: 'weights-table', 'class': 'sr-only', 'aria-live': 'polite', 'aria-atomic': 'false' });
    document.body.appendChild(weightsTableEl);
  }
  var lang = state.lang === 'ru' ? 'ru' : 'en', T = PAGE_TEXT[lang];
  var tokens = (trace.tokens || []).map(function (x) { return typeof x === 'string' ? x : (x && x.text) || ''; });
  var w = trace.weights || [], n = tokens.length, q = typeof state.query === 'number' ? state.query : 0;
  weightsTableEl.setAttribute('lang', lang);
  weightsTableEl.textContent = '';
  var table = el('table');
  var whole = n <= WHOLE_MATRIX_MAX;
  table.appendChild(el('caption', null, whole ? T.tableCaption
    : T.tableCaptionRow.replace('%s', tokens[q] || '').replace('%d', String(q + 1)).replace('%d', String(n))));
  var head = el('tr');
  if (whole) {
    head.appendChild(el('th', { scope: 'col' }, T.tableCorner));
    for (var j = 0; j < n; j++) head.appendChild(el('th', { scope: 'col' }, tokens[j]));
  } else {
    head.appendChild(el('th', { scope: 'col' }, T.tableKey));
    head.appendChild(el('th', { scope: 'col' }, T.tableWeight));
  }
  var thead = el('thead'); thead.appendChild(head); table.appendChild(thead);
  var body = el('tbody');
  function cell(v) { return el('td', { 'data-value': String(v) }, typeof v === 'number' ? v.toFixed(3) : String(v)); }
  if (whole) {
    for (var i = 0; i < n; i++) {
      var tr = el('tr', i === q ? { 'aria-current': 'true' } : null);
      tr.appendChild(el('th', { scope: 'row' }, tokens[i]));
      for (var k = 0; k < n; k++) tr.appendChild(cell(w[i] && w[i][k]));
      body.appendChild(tr);
    }
  } else {
    for (var m = 0; m < n; m++) {
      var row = el('tr');
      row.appendChild(el('th', { scope: 'row' }, tokens[m]));
      row.appendChild(cell(w[q] && w[q][m]));
      body.appendChild(row);
    }
  }
  table.appendChild(body);
  weightsTableEl.appendChild(table);
}

function prefersReducedMotion() {
  return !!(window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches);
}

// At load only: a link that opens the lab training (train.play) waits for the learner's Play.
function respectReducedMotion() {
  if (!prefersReducedMotion()) return;
  document.documentElement.className += ' reduced-motion';
  try {
    var st = rawGetState();
    if (st.train && st.train.play) rawSetState({ train: { play: false } });
  } catch (e) { /* the state stays as the link set it */ }
}
