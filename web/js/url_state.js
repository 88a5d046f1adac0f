// The lab's state in the page's address (location.hash): the link applied at load and on
// hashchange, and the hash kept up to date on every change; a lesson's hide and lock sets too.

/*
 * URL state: location.hash, e.g. #sentence=я%20люблю%20суши&query=1&temperature=0.5&lang=ru
 * (numbers as text, booleans as 0/1/true/false). Training settings as train.<field>, e.g.
 * #view=training&train.play=1&train.lr=0.03&train.compare=scaled (only those that differ from
 * the defaults are written). Applied once the lab is ready; kept up to date with
 * history.replaceState: at once after a call of the API or a link, and at most four times a
 * second while the learner drags or types (browsers refuse a flood of them: Safari throws after
 * 100 calls in 10 s, Chromium drops them), the last state always written.
 *
 * A lab for a lesson: state.hide and state.lock are sets of parts, comma-separated in a link
 * (#hide=training,normalization,mask&lock=sentence,settings&view=weights) or a string or an
 * array in setState. Parts: header, share, lesson, attention, training, normalization,
 * sentence, settings, steps, weights, vectors, information, the settings groups projection,
 * scaling, positional, normalizer, mask, heads, sizes, seed, and the Training tab's train.task,
 * train.optimizer, train.layer, train.compare. Hidden parts are absent from the screen; locked
 * ones are shown with their controls disabled for the learner, while setState, links and
 * postMessage still change them.
 */

// URL state (location.hash). The lab reads and writes links itself (api/url_state.cpp: each
// value by its field's kind); this code only moves the text between it and the address bar.
var hashEnabled = false;   // written only after the link state has been applied
var lastHash = null;
var HASH_INTERVAL_MS = 250;  // the learner's changes: at most one write per interval
var lastHashWrite = -Infinity, hashTimer = null;
var addressAfterWrite = null;  // location.hash after our last write, as the browser spells it

function writeHash() {
  if (!hashEnabled) return;
  var hash = fns.getLink();
  if (!hash || (hash === lastHash && location.hash === hash)) return;
  lastHash = hash;
  lastHashWrite = performance.now();
  try { history.replaceState(history.state, '', hash); } catch (e) { /* sandboxed frame: no URL state */ }
  addressAfterWrite = location.hash;
}

// A change the learner made in the lab (a drag is one per frame): written now if the last write
// is an interval old, else once when it is, with the state of that moment. Not over an address
// edited since our last write (by hand, or a link): its hashchange, queued, applies it and then
// writes; writing first would put the old state back and lose the edit.
function writeHashSoon() {
  if (hashTimer !== null) return;
  var wait = lastHashWrite + HASH_INTERVAL_MS - performance.now();
  if (wait <= 0) { writeLearnersChange(); return; }
  hashTimer = setTimeout(function () { hashTimer = null; writeLearnersChange(); }, wait);
}
function writeLearnersChange() {
  if (addressAfterWrite !== null && location.hash !== addressAfterWrite) return;
  writeHash();
}

// Applies a link: every field the lab accepts; the others are listed in a notice and on the
// console. Returns the list of {field, error}.
function applyLinkState(hash, isInitial) {
  var res = parseJSON(fns.applyLink(hash || '', isInitial ? browserLang() : ''), 'attnlab_apply_link');
  var errors = (res && res.errors) || [];
  if (errors.length) {
    var lines = errors.map(function (x) { return (x.field || '?') + ': ' + x.error; });
    console.warn('Attention Lab: link parameters not applied: ' + lines.join('; '));
    showNotice(t('ignored'), lines);
  }
  return errors;
}
