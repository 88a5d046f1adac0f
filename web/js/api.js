// window.attentionLab, the page API: its reference (below), its calls, the C functions they reach
// (bind: read by the build's bridge-export check) and the listeners every state change reaches.

/*
 * API (window.attentionLab):
 *   ready                 Promise, resolved when the lab runs (rejected if loading failed)
 *   getState()            -> {sentence, query, projection, temperature, scaled, dModel, dK, seed,
 *                             positional, lang, ...}
 *   setState(partial)     -> {ok:true, state} | {ok:false, field, error}; never throws for bad
 *                            values; throws TypeError if partial is not a plain object
 *   getTrace()            -> {tokens, X, Q, K, V, scores, scaled, weights, output, config, steps, error}
 *   getLink()             -> the address of the lab with the current state in its hash (the share
 *                            button's link; hide and lock included)
 *   getEmbedSnippet()     -> an <iframe> for the current state with the auto-height script (the
 *                            share button's snippet)
 *   on('change', fn)      fn(state) after every state change; returns an unsubscribe function
 *   off('change', fn)
 * Lessons (docs/lessons.md):
 *   setLesson(doc)        loads a lesson document (JSON text or an object, "format":
 *                         "attentionlab-lesson-1") and opens its step 1 -> {ok: true, lessonId,
 *                         steps, state} | {ok: false, field: 'steps[3].question.choices', error};
 *                         a refusal leaves the lab and the lesson before it as they were
 *   getLesson()           -> the loaded document (null before the built-in one is first needed)
 *   answerLesson(choice)  answers the step shown (0-based choice), as the learner's button does
 *   getLessonProgress()   -> {lessonId, total, answered, correct, answers: [{step, choice, correct}]}
 *   on('answer', fn)      fn({type: 'answer', step, choice, correct, lessonId}) for every answer
 *   on('lessonDone', fn)  fn({type: 'lessonDone', lessonId, total, answered, correct, answers})
 *                         when the lesson's last unanswered question is answered
 *   status                'loading' | 'ready' | 'error'
 * Calls before ready throw Error("Attention Lab is still loading").
 *
 * Training (the Training tab; its settings are the state's nested `train` object):
 *   state.train           {task: 'verb_object'|'previous'|'reverse'|'max', length (2-16, not for
 *                          verb_object), optimizer: 'adam'|'sgd', lr (0 < lr <= 10), batch (1-256),
 *                          seed, normalizer, scaled, dModel (2-128), dK (1-256), dV (1-128),
 *                          heads (1-8), causal, example ('' = the task's default in the interface
 *                          language: «я люблю суши» / "I love sushi"), compare, play, speed,
 *                          query}
 *                          setState({train: {lr: 0.03}}) changes only what it names; a refusal
 *                          names the field as 'train.lr'. Changing a training setting (not play,
 *                          speed or query) starts the runs again from step 0.
 *                          compare: '' (one run) or run B = run A with one change, same seed:
 *                          'scaled' (the other ÷√d_k), 'normalizer:<name>', 'optimizer:<name>',
 *                          'lr:<number>', 'dK:<integer>'. play: true trains in the page's frames
 *                          (a link can open the lab playing). speed: steps per frame while
 *                          playing (0-64, 0 = as many as fit ~11 ms; default 1, about 60 steps a
 *                          second). query: the example's row the panels
 *                          explain, -1 = automatic (the verb).
 *   train(steps)          runs that many steps now (integer 0-5000; call again for more; each
 *                          step costs ~1-3 ms per run in a browser and the page does not draw
 *                          meanwhile, so prefer a few hundred per call) and
 *                          returns {ok: true, step, loss, accuracy, attentionOnSource,
 *                          gradNorm: {WQ, WK, WV, WO, total}, exampleWeights: [per head N×N],
 *                          tokens, query, predicted, diverged, message, compare, b: {the same for
 *                          run B} | null}. loss, accuracy, attentionOnSource and gradNorm are the
 *                          last step's batch (before its update), null before the first step.
 *                          A run that diverges stops (diverged: true, message says where) and
 *                          play becomes false. Bad steps: {ok: false, field: 'steps', error}.
 *   getTraining()         -> {ok, state: state.train, query, a: {steps, loss, accuracy,
 *                          attentionOnSource, gradNorm: {WQ, WK, WV, WO, total} (one array per
 *                          metric, index k = step k+1), diverged, message, current: (as train())},
 *                          b: the same | null}
 * The trained model (projection: 'model', with layer 0-3 and head 0-3 in the state):
 *   choosing it makes the lab fetch model/MANIFEST.sha256 and the files it lists (never before),
 *   with a progress bar, their SHA-256 from WebCrypto (none over plain http: a console warning,
 *   the structural checks still run); getTrace() then adds model: {ids, tokens, words,
 *   wordStart, layer, head, weights: [layer][head][t][0..t] as `attnlab model run`, next: top 5}.
 *   getBuild()            -> 'default' | 'full': the page starts on the default build; the full
 *                          build (index-model.wasm: the trained model's code and the what-if
 *                          tools) replaces it, state and all, when model mode or the What if
 *                          tab, a chip's what-if or an edit in the state asks for it
 *   getModelStatus()      -> {load: 'not requested'|'loading'|'ready'|'failed', fraction,
 *                          message, thumbnails: [[x, y, w, h] of each head thumbnail drawn],
 *                          probe: the last probeHead(); in the full build name, bytes,
 *                          totalBytes (a checkpoint on its way), model: the model held}
 *   loadModel({url} | {files}) -> Promise of getModelStatus() once a GPT-2-family checkpoint
 *                          (docs/models.md) is the lab's model; rejected with the refusal
 *   forgetDownloadedModels() -> Promise of {ok, freedBytes}: the browser's copies dropped
 *   probeHead()           -> "Probe this head" now (README)
 * What moved the prediction (model mode, the Prediction tab; docs/inspect.md), each {ok: false,
 * field, error} when refused:
 *   getLens()             -> {ok, rows, tokens, chosenTarget, targets, top: [k][t] {id, text, p},
 *                          targetP: [k][t], lastTop5: [k][5], ms}: `attnlab model lens`'s JSON
 *                          (the state's answer is the target)
 *   getAttribution({target, foil}) -> {ok, position, target, foil, logit, sum, scale, parts: [{name,
 *                          layer, head, value}], heads: [{layer, head, weight, contribution,
 *                          attribution}], tokens, ms}: `attnlab model attribute`'s; target and foil
 *                          (ids or one token's text) default to the state's answer and foil
 *   runPatching({clean, corrupted, what, target, foil, onProgress}) -> Promise of `attnlab model
 *                          patch`'s JSON with ok, running, cancelled, current, ms; the options given
 *                          become the state's sentence, corrupted, patch, answer and foil;
 *                          onProgress(status) after each frame's runs
 *   generate({n, temperature, topK, topP, seed, onProgress}) -> Promise of {ok, tokens: [{id,
 *                          text}], prompt, stopped, full, ms, ...}: sampled with the key/value cache
 *   cancelJob()           stops a patching run or a generation (its promise settles, cancelled)
 * Normalization (the Normalization tab):
 *   getNormalization()    -> {ok, scoreVariance: [{dK, varUnscaled, varScaled, analyticUnscaled,
 *                          analyticScaled}], saturation: [{dK, entropyUnscaled, entropyScaled,
 *                          gradUnscaled, gradScaled, maxWeightUnscaled, maxWeightScaled}],
 *                          outputNorm: {normalizers, points: [{magnitude, norm: [per normalizer],
 *                          bound}]}, keys, dV, samples, curves: null | {steps, seeds, progress,
 *                          done, running, series: [{label, normalizer, scaled, dK, lossMean,
 *                          lossMin, lossMax, accMean, accMin, accMax, attnMean, diverged,
 *                          message}]}}
 *   runNormalization(opts) starts the training curves over several seeds (the Training tab's
 *                          settings), opts {seeds: 1-10, steps: 1-2000} (both optional); they
 *                          run in the page's frames: poll getNormalization().curves.done.
 *                          -> {ok: true, seeds, steps} | {ok: false, field, error}
 *
 * Export (figures and numbers; see the README's "Export"):
 *   export({what, format}) -> Promise of {ok: true, blob, filename, type, width, height} |
 *                          {ok: false, field, error}. what: 'weights' (png, svg, csv, json),
 *                          'trace' (json), 'vectors' (png), the Training tab's plots 'loss',
 *                          'accuracy', 'attention', 'grad_norms' and the Normalization tab's
 *                          'variance', 'sat_entropy', 'sat_grad', 'output_norm', 'curves_scaling',
 *                          'curves_norms' (png, svg). PNG: the picture on screen at 2x (width and
 *                          height in pixels; a picture must be on screen: show its tab first);
 *                          SVG: vector, white background, real text; CSV: UTF-8 with a BOM,
 *                          N+1 lines; JSON: the same as getTrace(). File names are ASCII, e.g.
 *                          attention-weights-ya-lyublyu-sushi.png.
 *   download({what, format}) the same, and the browser saves the file (an <a download>)
 *
 * The state in the page's address and a lesson's hide and lock: url_state.js. The same calls
 * from a course page around the lab (postMessage): guest.js.
 */

var STILL_LOADING = 'Attention Lab is still loading';

var MAX_TRAIN_STEPS = 5000;    // attentionLab.train(steps): the C++ side refuses more too

var fns = null;              // cwrapped C functions once the runtime is up
var listeners = [];
var lessonListeners = { answer: [], lessonDone: [] };

function requireReady() {
  if (status === 'ready') return;
  if (status === 'error') throw new Error('Attention Lab failed to load: ' + (failure && failure.message));
  throw new Error(STILL_LOADING);
}

function isPlainObject(v) {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  var proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null ||
         Object.prototype.toString.call(v) === '[object Object]' && Object.getPrototypeOf(proto) === null;
}

function parseJSON(text, what) {
  try { return JSON.parse(text); } catch (e) { throw new Error('Attention Lab: ' + what + ' returned invalid JSON: ' + e.message); }
}

// runPatching and generate: a job the lab runs in its frames; the promise settles with its last
// status once it stops running (done, cancelled or refused), onProgress hears each one before.
// The Prediction tab's calls go through one C function (app::InspectCallJson), by name.
function inspect(call, options) {
  return parseJSON(fns.inspect(call, options === undefined ? '' : JSON.stringify(options)), 'attnlab_inspect ' + call);
}
function labJob(start, status, options) {
  if (options === undefined) options = {};
  if (!isPlainObject(options)) return Promise.resolve({ ok: false, field: '', error: 'expected an object of options' });
  var progress = typeof options.onProgress === 'function' ? options.onProgress : null;
  return new Promise(function (resolve) {
    (function poll(st) {
      if (!st || st.ok === false || !st.running) return resolve(st);
      if (progress) try { progress(st); } catch (e) { setTimeout(function () { throw e; }); }
      setTimeout(function () { poll(inspect(status)); }, 40);
    })(inspect(start, options));
  });
}

// Raw calls (no readiness check): used internally while the link state is being applied.
function rawGetState() { return parseJSON(fns.getState(), 'attnlab_get_state'); }
function rawGetTrace() { return parseJSON(fns.getTrace(), 'attnlab_get_trace'); }

// Training and normalization calls. Each may change the state (a diverging run stops playing):
// the C++ side then reports the change, which updates the hash and the listeners.
function rawTrain(steps) {
  // The lab checks the number (integer, 0..5000); a value of another type would be converted
  // on the way in, so it is refused here in the lab's words.
  if (typeof steps !== 'number') {
    return { ok: false, field: 'steps', error: 'steps: expected an integer from 0 to ' + MAX_TRAIN_STEPS + ', got ' + (typeof steps) + ' (call train() again for more)' };
  }
  return parseJSON(fns.train(steps), 'attnlab_train');
}
function rawRunNormalization(options) {
  if (options === undefined) options = {};
  if (!isPlainObject(options)) return { ok: false, field: '', error: 'runNormalization expects an object, e.g. {seeds: 3, steps: 200}' };
  return parseJSON(fns.runNormalization(JSON.stringify(options)), 'attnlab_run_normalization');
}
var LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function rawSetState(partial) {
  // A string with a lone UTF-16 surrogate has no UTF-8 form: refuse it here, naming the field
  // (the lab itself would only see JSON it cannot parse).
  function surrogate(obj, prefix) {
    for (var key in obj) {
      if (Object.prototype.hasOwnProperty.call(obj, key) && typeof obj[key] === 'string' && LONE_SURROGATE.test(obj[key])) {
        return { ok: false, field: prefix + key, error: prefix + key + ': expected valid Unicode text, got a lone UTF-16 surrogate' };
      }
    }
    return null;
  }
  var bad = surrogate(partial, '') || (isPlainObject(partial.train) ? surrogate(partial.train, 'train.') : null);
  if (bad) return bad;
  // Top-level undefined becomes null so that the C++ side refuses it (instead of silently
  // dropping the field); NaN/Infinity become null by JSON rules and are refused the same way.
  var json = JSON.stringify(partial, function (key, value) {
    if (value === undefined && (this === partial || this === partial.train)) return null;
    if (typeof value === 'bigint') return Number(value) <= Number.MAX_SAFE_INTEGER && Number(value) >= -Number.MAX_SAFE_INTEGER ? Number(value) : String(value);
    return value;
  });
  var res;
  try { res = JSON.parse(fns.setState(json)); } catch (e) { return { ok: false, field: '', error: 'invalid reply from attnlab_set_state: ' + e.message }; }
  if (res && res.ok === true) {
    var state = res.state || rawGetState();
    writeHash();
    return { ok: true, state: state };
  }
  var out = { ok: false, field: (res && typeof res.field === 'string') ? res.field : '', error: (res && res.error) ? String(res.error) : 'refused' };
  for (var k in res) if (Object.prototype.hasOwnProperty.call(res, k) && !(k in out)) out[k] = res[k];
  return out;
}

// setLesson's document as text: an object is written as JSON (a value JSON cannot hold is
// refused by the lab as the path it is at).
function rawSetLesson(doc) {
  var text = doc;
  if (typeof doc !== 'string') {
    try { text = JSON.stringify(doc); } catch (e) { return { ok: false, field: 'lesson', error: 'lesson: expected a JSON document, got ' + e.message }; }
    if (typeof text !== 'string') return { ok: false, field: 'lesson', error: 'lesson: expected a JSON document, got ' + (typeof doc) };
  }
  if (LONE_SURROGATE.test(text)) return { ok: false, field: 'lesson', error: 'lesson: expected valid Unicode text, got a lone UTF-16 surrogate' };
  var res = parseJSON(fns.setLesson(text), 'attnlab_set_lesson');
  if (res && res.ok) writeHash();
  return res;
}

// The lesson's answer events the lab recorded (app/lesson: AnswerLesson), taken after each
// change: to the parent page and to on('answer') / on('lessonDone').
function dispatchLessonEvents() {
  var events = parseJSON(fns.lessonEvents(), 'attnlab_lesson_events');
  for (var i = 0; i < events.length; i++) {
    var ev = events[i], name = ev.type;
    ev.type = 'attentionLab:' + name;
    postToParent(ev);
    var ls = (lessonListeners[name] || []).slice();
    for (var j = 0; j < ls.length; j++) {
      try { ls[j](ev); } catch (err) { setTimeout(function () { throw err; }); }
    }
  }
}

var api = {
  ready: ready,
  setLesson: function (doc) { requireReady(); return rawSetLesson(doc); },
  getLesson: function () { requireReady(); var t = fns.getLesson(); return t ? parseJSON(t, 'attnlab_get_lesson') : null; },
  answerLesson: function (choice) {
    requireReady();
    if (typeof choice !== 'number' || Math.floor(choice) !== choice) {
      return { ok: false, field: 'choice', error: 'choice: expected an integer from 0 (the first choice), got ' + (typeof choice === 'number' ? String(choice) : typeof choice) };
    }
    var r = parseJSON(fns.answerLesson(choice), 'attnlab_answer_lesson');
    if (r && r.ok) writeHash();
    return r;
  },
  getLessonProgress: function () { requireReady(); return parseJSON(fns.lessonProgress(), 'attnlab_lesson_progress'); },
  getState: function () { requireReady(); return rawGetState(); },
  getTrace: function () { requireReady(); return rawGetTrace(); },
  train: function (steps) { requireReady(); return rawTrain(steps); },
  getTraining: function () { requireReady(); return parseJSON(fns.getTraining(), 'attnlab_get_training'); },
  getNormalization: function () { requireReady(); return parseJSON(fns.getNormalization(), 'attnlab_get_normalization'); },
  runNormalization: function (options) { requireReady(); return rawRunNormalization(options); },
  // "Train it more" (model mode): tuneModel({steps}) starts a run in the lab's frames (the
  // text and settings are the state's tune* fields); getTuneStatus() its progress, losses and
  // the weights' checksum (the same as `attnlab model tune` prints); stopTune(), resetTune().
  tuneModel: function (options) {
    requireReady();
    if (options === undefined) options = {};
    if (!isPlainObject(options)) return { ok: false, field: '', error: 'tuneModel expects an object, e.g. {steps: 20}' };
    return parseJSON(fns.tuneModel(JSON.stringify(options)), 'attnlab_tune_model');
  },
  getTuneStatus: function () { requireReady(); return parseJSON(fns.tuneStatus(), 'attnlab_tune_status'); },
  stopTune: function () { requireReady(); fns.stopTune(); return parseJSON(fns.tuneStatus(), 'attnlab_tune_status'); },
  resetTune: function () { requireReady(); fns.resetTune(); return parseJSON(fns.tuneStatus(), 'attnlab_tune_status'); },
  getLink: function () { requireReady(); return pageUrl() + fns.getLink(); },
  getModelStatus: function () { requireReady(); return parseJSON(fns.getModelStatus(), 'attnlab_get_model_status'); },
  loadModel: function (o) { requireReady(); return checkpoint().then(function (c) { return c.load(o); }); },
  forgetDownloadedModels: function () { requireReady(); return checkpoint().then(function (c) { return c.forget(); }); },
  getBuild: function () { requireReady(); return current && current._attnlab_model_code() ? 'full' : 'default'; },
  probeHead: function () { requireReady(); return parseJSON(fns.probeHead(), 'attnlab_probe_head'); },
  getLens: function () { requireReady(); return inspect('lens'); },
  getAttribution: function (o) { requireReady(); return inspect('attribution', o); },
  runPatching: function (o) { requireReady(); return labJob('runPatching', 'patchingStatus', o); },
  generate: function (o) { requireReady(); return labJob('generate', 'generationStatus', o); },
  cancelJob: function () { requireReady(); inspect('cancel'); },
  getEmbedSnippet: function () { requireReady(); return fns.getEmbedSnippet(pageUrl()); },
  setState: function (partial) {
    if (!isPlainObject(partial)) throw new TypeError('attentionLab.setState expects a plain object, e.g. {temperature: 0.5}');
    requireReady();
    return rawSetState(partial);
  },
  'export': function (options) { requireReady(); return rawExport(options, false); },
  download: function (options) { requireReady(); return rawExport(options, true); },
  on: function (event, fn) {
    var list = event === 'change' ? listeners : lessonListeners.hasOwnProperty(event) ? lessonListeners[event] : null;
    if (!list) throw new TypeError('attentionLab.on: unknown event "' + event + '" (one of "change", "answer", "lessonDone")');
    if (typeof fn !== 'function') throw new TypeError('attentionLab.on: listener must be a function');
    list.push(fn);
    return function () { api.off(event, fn); };
  },
  off: function (event, fn) {
    var list = event === 'change' ? listeners : lessonListeners.hasOwnProperty(event) ? lessonListeners[event] : [];
    for (var i = list.length - 1; i >= 0; i--) if (list[i] === fn) list.splice(i, 1);
  }
};
Object.defineProperty(api, 'status', { get: function () { return status; }, enumerable: true });
window.attentionLab = api;

// The lab's own address without the hash: the base of the share link and the snippet.
function pageUrl() { return String(location.href).split('#')[0]; }

// The lab's state changed (Module.onLabStateChanged; deferred by boot, never re-entering the
// wasm from inside its own call): the address, the parent page, the screen-reader table, the
// tune texts and the listeners follow.
function onStateChanged(json) {
  if (status !== 'ready') return;
  var state;
  try { state = typeof json === 'string' ? JSON.parse(json) : rawGetState(); } catch (e) { state = rawGetState(); }
  writeHashSoon();
  if (state && (state.lang === 'ru' || state.lang === 'en')) document.documentElement.lang = state.lang;
  postToParent({ type: 'attentionLab:change', state: state });
  updateWeightsTable();
  fetchTuneTextsIfWanted(state);
  var ls = listeners.slice();
  for (var i = 0; i < ls.length; i++) {
    try { ls[i](state); } catch (err) { setTimeout(function () { throw err; }); }
  }
  dispatchLessonEvents();
}

// The page API and the page's listeners call the running build through fns (the default
// page's build, then the model's after a switch).
function bind(Module) {
  fns = {
    getState: Module.cwrap('attnlab_get_state', 'string', []),
    setState: Module.cwrap('attnlab_set_state', 'string', ['string']),
    getTrace: Module.cwrap('attnlab_get_trace', 'string', []),
    train: Module.cwrap('attnlab_train', 'string', ['number']),
    getTraining: Module.cwrap('attnlab_get_training', 'string', []),
    getNormalization: Module.cwrap('attnlab_get_normalization', 'string', []),
    runNormalization: Module.cwrap('attnlab_run_normalization', 'string', ['string']),
    applyLink: Module.cwrap('attnlab_apply_link', 'string', ['string', 'string']),
    getLink: Module.cwrap('attnlab_get_link', 'string', []),
    exportFigure: Module.cwrap('attnlab_export', 'string', ['string']),
    getEmbedSnippet: Module.cwrap('attnlab_get_embed_snippet', 'string', ['string']),
    setPageUrl: Module.cwrap('attnlab_set_page_url', null, ['string']),
    copyResult: Module.cwrap('attnlab_copy_result', null, ['number']),
    tuneModel: Module.cwrap('attnlab_tune_model', 'string', ['string']),
    tuneStatus: Module.cwrap('attnlab_tune_status', 'string', []),
    stopTune: Module.cwrap('attnlab_stop_tune', null, []),
    resetTune: Module.cwrap('attnlab_reset_tune', null, []),
    tuneTexts: Module.cwrap('attnlab_tune_texts', null, ['string', 'string']),
    getModelStatus: Module.cwrap('attnlab_get_model_status', 'string', []),
    probeHead: Module.cwrap('attnlab_probe_head', 'string', []),
    inspect: Module.cwrap('attnlab_inspect', 'string', ['string', 'string']),
    paste: Module.cwrap('attnlab_paste', null, ['string']),
    typeText: Module.cwrap('attnlab_type_text', null, ['string']),
    releasePointer: Module.cwrap('attnlab_release_pointer', null, []),
    setLesson: Module.cwrap('attnlab_set_lesson', 'string', ['string']),
    getLesson: Module.cwrap('attnlab_get_lesson', 'string', []),
    lessonEvents: Module.cwrap('attnlab_lesson_events', 'string', []),
    lessonProgress: Module.cwrap('attnlab_lesson_progress', 'string', []),
    answerLesson: Module.cwrap('attnlab_answer_lesson', 'string', ['number'])
  };
}
