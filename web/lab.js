/*
 * Attention Lab page: loader, window.attentionLab API, URL state, postMessage bridge.
 *
 * Loading: checks WebAssembly and WebGL2 first (plain-HTML message if missing; a browser that
 * has WebGL2 but cannot make a context is told by main() through Module.onLabNoWebGL2), downloads
 * index.wasm itself to show a progress bar, loads the Emscripten glue index.js
 * (MODULARIZE, factory createAttentionLab) and hands the bytes over via Module.instantiateWasm.
 * The lab is "ready" after the C++ side calls Module.onLabReady() (first frame drawn).
 *
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
 *   getModelStatus()      -> {load: 'not requested'|'loading'|'ready'|'failed', fraction,
 *                          message, thumbnails: [[x, y, w, h] of each head thumbnail drawn],
 *                          probe: the last probeHead()}
 *   probeHead()           -> "Probe this head" now (README)
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
 * URL state: location.hash, e.g. #sentence=я%20люблю%20суши&query=1&temperature=0.5&lang=ru
 * (numbers as text, booleans as 0/1/true/false). Training settings as train.<field>, e.g.
 * #view=training&train.play=1&train.lr=0.03&train.compare=scaled (only those that differ from
 * the defaults are written). Applied once the lab is ready; kept up to date with
 * history.replaceState on every change.
 *
 * A lab for a lesson: state.hide and state.lock are sets of parts, comma-separated in a link
 * (#hide=training,normalization,mask&lock=sentence,settings&view=weights) or a string or an
 * array in setState. Parts: header, share, lesson, attention, training, normalization,
 * sentence, settings, steps, weights, vectors, information, the settings groups projection,
 * scaling, positional, normalizer, mask, heads, sizes, seed, and the Training tab's train.task,
 * train.optimizer, train.layer, train.compare. Hidden parts are absent from the screen; locked
 * ones are shown with their controls disabled for the learner, while setState, links and
 * postMessage still change them.
 *
 * Embedding (iframe): the parent posts {type:'attentionLab:setState', state:{...}, id},
 * {type:'attentionLab:getState', id}, {type:'attentionLab:getTrace', id},
 * {type:'attentionLab:train', steps, id}, {type:'attentionLab:getTraining', id},
 * {type:'attentionLab:getNormalization', id}, {type:'attentionLab:runNormalization', options, id},
 * {type:'attentionLab:getLink', id} or {type:'attentionLab:getEmbedSnippet', id}
 * and receives {type:'attentionLab:result', id, result}. The lab also posts
 * {type:'attentionLab:ready', state} and {type:'attentionLab:change', state} to its parent.
 * See embed-example.html.
 *
 * Clipboard: paste events on the page go to the lab (C function attnlab_paste), since SDL has
 * no clipboard in the browser. Copies (the share popup, Ctrl+C in a text box) go through
 * navigator.clipboard; when the browser does not allow it, the text is shown selected in a small
 * box over the lab for the user to copy by hand.
 *
 * Written in ES5 syntax on purpose: an old browser must still parse this file and show the
 * "not supported" message instead of a blank page.
 */
(function () {
  'use strict';

  var WASM_URL = 'index.wasm';
  var GLUE_URL = 'index.js';
  // The lab with the trained model's code (model mode): the default page's build has none of it
  // (src/model/absent.cpp; issue 11's 500 KB) and moves the lab onto this one when asked.
  var MODEL_WASM_URL = 'index-model.wasm';
  var MODEL_GLUE_URL = 'index-model.js';
  var STILL_LOADING = 'Attention Lab is still loading';

  var MAX_TRAIN_STEPS = 5000;    // attentionLab.train(steps): the C++ side refuses more too

  // ---------------------------------------------------------------------------------------
  // Language of the page's own (HTML) messages.
  function browserLang() {
    var l = (navigator.languages && navigator.languages[0]) || navigator.language || '';
    return /^ru\b/i.test(l) ? 'ru' : 'en';
  }
  var pageLang = browserLang();
  document.documentElement.lang = pageLang;

  var TEXT = {
    en: {
      title: 'Attention Lab',
      noWasm: 'Your browser does not support WebAssembly, which Attention Lab needs. ' +
              'Please open this page in a current version of Chrome, Firefox, Safari or Edge.',
      noWebGL2: 'Attention Lab draws with WebGL2, which is not available in this browser ' +
                '(it may be turned off, or the graphics driver may be blocked). Try a current ' +
                'browser, turn on hardware acceleration, or open the page on another device.',
      failed: 'Attention Lab could not start.',
      reload: 'Reload the page',
      downloading: 'Downloading',
      starting: 'Starting…',
      slow: 'Still starting… (this can take a while on slow devices)',
      ignored: 'Some settings from the link were not applied:',
      close: 'Close',
      copyByHand: 'Copying was not allowed here: the text is selected, press Ctrl+C (⌘C) to copy it.'
    },
    ru: {
      title: 'Attention Lab',
      noWasm: 'Ваш браузер не поддерживает WebAssembly, без которого Attention Lab не работает. ' +
              'Откройте страницу в свежей версии Chrome, Firefox, Safari или Edge.',
      noWebGL2: 'Attention Lab рисует через WebGL2, а он в этом браузере недоступен (выключен ' +
                'или заблокирован драйвер видеокарты). Попробуйте свежий браузер, включите ' +
                'аппаратное ускорение или откройте страницу на другом устройстве.',
      failed: 'Не удалось запустить Attention Lab.',
      reload: 'Перезагрузить страницу',
      downloading: 'Загрузка',
      starting: 'Запуск…',
      slow: 'Всё ещё запускается… (на медленных устройствах это может занять время)',
      ignored: 'Некоторые настройки из ссылки не применены:',
      close: 'Закрыть',
      copyByHand: 'Копирование здесь не разрешено: текст выделен, нажмите Ctrl+C (⌘C), чтобы скопировать.'
    }
  };
  function t(key) { return TEXT[pageLang][key]; }
  function otherLang() { return pageLang === 'ru' ? 'en' : 'ru'; }

  // ---------------------------------------------------------------------------------------
  // DOM helpers
  var canvas = document.getElementById('canvas');
  var loaderEl = document.getElementById('loader');
  var loaderFill = document.getElementById('loader-fill');
  var loaderText = document.getElementById('loader-text');
  var messageEl = document.getElementById('message');

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]);
    if (text != null) e.textContent = text;
    return e;
  }

  function hideLoader() { if (loaderEl) loaderEl.className += ' done'; }

  function reloadLink(lang) {
    var a = el('a', { href: location.href, 'class': 'reload' }, TEXT[lang].reload);
    a.addEventListener('click', function (ev) { ev.preventDefault(); location.reload(); });
    return a;
  }

  // A plain-HTML panel over everything: the message in the user's language first, then the
  // other one. `key` names a TEXT entry; `detail` (optional) is shown verbatim.
  function showPanel(key, detail, withReload) {
    hideLoader();
    if (!messageEl) { messageEl = el('div', { id: 'message', 'class': 'overlay', role: 'alert' }); document.body.appendChild(messageEl); }
    messageEl.textContent = '';
    var card = el('div', { 'class': 'card error' });
    card.appendChild(el('h1', null, t('title')));
    var langs = [pageLang, otherLang()];
    for (var i = 0; i < langs.length; i++) {
      var p = el('p', { lang: langs[i] }, TEXT[langs[i]][key]);
      card.appendChild(p);
      if (i === 0 && detail) card.appendChild(el('pre', null, detail));
      if (withReload) { var r = el('p', { lang: langs[i] }); r.appendChild(reloadLink(langs[i])); card.appendChild(r); }
    }
    messageEl.appendChild(card);
    messageEl.hidden = false;
    if (canvas) canvas.setAttribute('aria-hidden', 'true');
  }

  // Small dismissible notice (link parameters that were refused).
  var noticeTimer = 0;
  function showNotice(title, lines) {
    var n = document.getElementById('notice');
    if (!n) { n = el('div', { id: 'notice', role: 'status' }); document.body.appendChild(n); }
    n.textContent = '';
    var close = el('button', { type: 'button', 'aria-label': t('close'), title: t('close') }, '×');
    close.addEventListener('click', function () { n.hidden = true; });
    n.appendChild(close);
    n.appendChild(el('div', null, title));
    var ul = el('ul');
    for (var i = 0; i < lines.length; i++) ul.appendChild(el('li', null, lines[i]));
    n.appendChild(ul);
    n.hidden = false;
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(function () { n.hidden = true; }, 15000);
  }

  // ---------------------------------------------------------------------------------------
  // State of the loader and the public API object
  var status = 'loading';
  var failure = null;          // Error once loading failed
  var fns = null;              // cwrapped C functions once the runtime is up
  var listeners = [];
  var readyResolve, readyReject;
  var ready = (typeof Promise === 'function') ? new Promise(function (res, rej) { readyResolve = res; readyReject = rej; }) : null;
  if (ready) ready['catch'](function () {});  // a failed load is shown in the page, not as an unhandled rejection

  function requireReady() {
    if (status === 'ready') return;
    if (status === 'error') throw new Error('Attention Lab failed to load: ' + (failure && failure.message));
    throw new Error(STILL_LOADING);
  }

  function fail(err) {
    if (status === 'error') return;
    var wasReady = status === 'ready';
    status = 'error';
    failure = err instanceof Error ? err : new Error(String(err));
    if (!wasReady && readyReject) readyReject(failure);
    console.error('Attention Lab: ' + failure.message);
    showPanel('failed', failure.message, true);
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

  var api = {
    ready: ready,
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
    probeHead: function () { requireReady(); return parseJSON(fns.probeHead(), 'attnlab_probe_head'); },
    getEmbedSnippet: function () { requireReady(); return fns.getEmbedSnippet(pageUrl()); },
    setState: function (partial) {
      if (!isPlainObject(partial)) throw new TypeError('attentionLab.setState expects a plain object, e.g. {temperature: 0.5}');
      requireReady();
      return rawSetState(partial);
    },
    'export': function (options) { requireReady(); return rawExport(options, false); },
    download: function (options) { requireReady(); return rawExport(options, true); },
    on: function (event, fn) {
      if (event !== 'change') throw new TypeError('attentionLab.on: unknown event "' + event + '" (only "change")');
      if (typeof fn !== 'function') throw new TypeError('attentionLab.on: listener must be a function');
      listeners.push(fn);
      return function () { api.off(event, fn); };
    },
    off: function (event, fn) {
      for (var i = listeners.length - 1; i >= 0; i--) if (listeners[i] === fn) listeners.splice(i, 1);
    }
  };
  Object.defineProperty(api, 'status', { get: function () { return status; }, enumerable: true });
  window.attentionLab = api;

  // ---------------------------------------------------------------------------------------
  // URL state (location.hash). The lab reads and writes links itself (api/url_state.cpp: each
  // value by its field's kind); this code only moves the text between it and the address bar.
  var hashEnabled = false;   // written only after the link state has been applied
  var lastHash = null;

  function writeHash() {
    if (!hashEnabled) return;
    var hash = fns.getLink();
    if (!hash || (hash === lastHash && location.hash === hash)) return;
    lastHash = hash;
    try { history.replaceState(history.state, '', hash); } catch (e) { /* sandboxed frame: no URL state */ }
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

  // ---------------------------------------------------------------------------------------
  // Callbacks from the C++ side (deferred: never re-enter the wasm from inside its own call)
  function onStateChanged(json) {
    if (status !== 'ready') return;
    var state;
    try { state = typeof json === 'string' ? JSON.parse(json) : rawGetState(); } catch (e) { state = rawGetState(); }
    writeHash();
    if (state && (state.lang === 'ru' || state.lang === 'en')) document.documentElement.lang = state.lang;
    postToParent({ type: 'attentionLab:change', state: state });
    updateWeightsTable();
    fetchTuneTextsIfWanted(state);
    var ls = listeners.slice();
    for (var i = 0; i < ls.length; i++) {
      try { ls[i](state); } catch (err) { setTimeout(function () { throw err; }); }
    }
  }

  // "Train it more": the built-in texts (web/tune/en.txt, ru.txt, 4 KB) are fetched once, when
  // model mode is first chosen (never by the default page), and handed to the lab.
  var tuneTextsRequested = false;
  var tuneTexts = null;  // [en, ru] once fetched: handed again to the model's build after a switch
  function fetchTuneTextsIfWanted(state) {
    if (tuneTextsRequested || !state || state.projection !== 'model' || !fns || !fns.tuneTexts) return;
    tuneTextsRequested = true;
    function get(name) {
      return fetch('tune/' + name).then(function (r) {
        if (!r.ok) throw new Error('tune/' + name + ': HTTP ' + r.status);
        return r.text();
      });
    }
    Promise.all([get('en.txt'), get('ru.txt')]).then(function (texts) {
      tuneTexts = texts;
      fns.tuneTexts(texts[0], texts[1]);
    }, function (e) {
      tuneTextsRequested = false;  // asked again at the next change
      console.warn('Attention Lab: the built-in texts for "Train it more" could not be fetched: ' + ((e && e.message) || e));
    });
  }

  // SDL has no clipboard in the browser: pasted text goes to the lab (C function attnlab_paste,
  // which types it into the active text box once Ctrl is up; ImGui's own Ctrl+V finds an empty
  // clipboard, so the text is inserted once). While a text box is active the page's text input
  // has the focus and receives the browser's paste itself. Otherwise Chromium fires no paste
  // event for Ctrl+V on a canvas, so Ctrl+V / Cmd+V briefly moves the focus to a hidden text
  // area that receives it. The key still reaches SDL (same event path) but SDL may not cancel it
  // (it cancels every Ctrl key), or the browser would not paste at all.
  function connectPaste(Module) {
    if (typeof Module._attnlab_paste !== 'function') return;
    var sink = el('textarea', { 'aria-hidden': 'true', tabindex: '-1', autocomplete: 'off', 'class': 'paste-sink' });
    document.body.appendChild(sink);
    function back() { if (document.activeElement === sink) focusCanvas(); }
    window.addEventListener('keydown', function (ev) {
      if (status !== 'ready' || document.activeElement !== canvas || ev.isTrusted === false) return;
      var v = ev.code === 'KeyV' || ev.key === 'v' || ev.key === 'V';
      if (!(v && (ev.ctrlKey || ev.metaKey) && !ev.altKey && !ev.shiftKey)) return;
      try { Object.defineProperty(ev, 'preventDefault', { value: function () {} }); } catch (e) { /* paste via ImGui only */ }
      sink.value = '';
      try { sink.focus({ preventScroll: true }); } catch (e2) { sink.focus(); }
      setTimeout(back, 50);
    }, true);
    window.addEventListener('paste', function (ev) {
      if (status !== 'ready' || !ev.clipboardData) return;
      if (ev.target !== sink && ev.target !== canvas && ev.target !== textInput && ev.target !== document.body && ev.target !== document.documentElement) return;
      var text = ev.clipboardData.getData('text/plain');
      ev.preventDefault();
      back();
      if (text) fns.paste(text);
    });
  }

  // The lab's own address without the hash: the base of the share link and the snippet.
  function pageUrl() { return String(location.href).split('#')[0]; }

  // Copies `text` (the share popup's Copy buttons, Ctrl+C in a text box) and tells the lab
  // whether it worked. Where the browser does not allow it (no permission, an iframe without
  // allow="clipboard-write", an insecure page), the text is shown selected in a small box over
  // the lab, so the user copies it by hand; Escape or × closes it.
  function copyText(text) {
    function done(ok) {
      if (fns && fns.copyResult) fns.copyResult(ok ? 1 : 0);
      if (!ok) showCopyBox(text);
    }
    try {
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(function () { done(true); }, function () { done(false); });
        return;
      }
    } catch (e) { /* fall through */ }
    done(false);
  }

  function showCopyBox(text) {
    var lang = pageLang;
    try { lang = rawGetState().lang === 'ru' ? 'ru' : 'en'; } catch (e) { /* the page's language */ }
    var box = document.getElementById('copy-box');
    if (!box) {
      box = el('div', { id: 'copy-box', role: 'dialog' });
      document.body.appendChild(box);
    }
    box.textContent = '';
    var close = el('button', { type: 'button', 'aria-label': TEXT[lang].close, title: TEXT[lang].close }, '×');
    var area = el('textarea', { readonly: 'readonly', rows: '4', spellcheck: 'false' });
    area.value = text;
    function hide() { box.hidden = true; focusCanvas(); }
    close.addEventListener('click', hide);
    area.addEventListener('keydown', function (ev) { if (ev.key === 'Escape') hide(); });
    box.appendChild(close);
    box.appendChild(el('div', null, TEXT[lang].copyByHand));
    box.appendChild(area);
    box.hidden = false;
    try { area.focus({ preventScroll: true }); } catch (e) { area.focus(); }
    area.select();
  }

  function focusCanvas() {
    try { canvas.focus({ preventScroll: true }); } catch (e) { canvas.focus(); }
  }

  // ---------------------------------------------------------------------------------------
  // A good citizen of the course page. The lab draws only when something changed (the C++ side,
  // src/platform/main.cpp); after every frame it drew it reports here (Module.onLabFrame) what
  // the page needs to decide between frames: the scrollable areas with their scroll positions,
  // whether a popup is open or an item is held, and the active text box.
  var frameInfo = { areas: [], popup: false, active: false, text: null };
  var PHONE_WIDTH = 820;   // narrower than this the lab shows one panel at a time (src/ui/layout.cpp)

  function onFrame(info) {
    frameInfo = info;
    syncTextInput();
  }

  // The innermost scrollable area under (x, y) that can still scroll by (dx, dy), or null.
  // Dear ImGui scrolls the innermost window that has something to scroll, and never passes a
  // wheel on to its parent: when that window is at its end, the wheel is the page's.
  function scrollTarget(x, y, dx, dy) {
    var a = frameInfo.areas, best = null, bestArea = Infinity;
    for (var i = 0; i + 7 < a.length; i += 8) {
      if (x < a[i] || y < a[i + 1] || x >= a[i + 2] || y >= a[i + 3]) continue;
      var vertical = Math.abs(dy) >= Math.abs(dx);
      if (vertical ? a[i + 7] <= 0 : a[i + 5] <= 0) continue;   // this one does not scroll that way
      var area = (a[i + 2] - a[i]) * (a[i + 3] - a[i + 1]);
      if (area < bestArea) { bestArea = area; best = i; }
    }
    if (best === null) return null;
    var vert = Math.abs(dy) >= Math.abs(dx), pos = a[best + (vert ? 6 : 4)], max = a[best + (vert ? 7 : 5)];
    var d = vert ? dy : dx;
    if ((d > 0 && pos >= max - 0.5) || (d < 0 && pos <= 0.5)) return null;   // already at that end
    return best;
  }

  // Wheel: the lab's (SDL's listener on the canvas scrolls the panel and cancels the page's
  // scroll) over a panel that can scroll that way; otherwise SDL never sees it and the browser
  // scrolls the page (inside an iframe: the course page around it). Ctrl+wheel is the
  // browser's zoom.
  function onWheel(ev) {
    if (ev.target !== canvas || ev.labTouchScroll) return;
    if (status === 'ready' && !ev.ctrlKey && (frameInfo.popup || scrollTarget(ev.clientX, ev.clientY, ev.deltaX, ev.deltaY) !== null)) return;
    ev.stopImmediatePropagation();
  }

  // Touch: the canvas lets the browser pan vertically (lab.css: touch-action: pan-y) and SDL no
  // longer cancels touchstart (main.cpp), so each one-finger gesture is decided at its first
  // move: sideways (a slider, a bar being dragged) or with a popup open it is the lab's; up or
  // down it scrolls the panel under the finger when that panel can scroll (turned into wheel
  // events for the lab), else the page. Whatever the finger pressed is then let go unclicked.
  function connectTouch() {
    var g = null;   // the gesture: {x, y, mode: null | 'lab' | 'panel' | 'page'}
    window.addEventListener('touchstart', function (ev) {
      if (ev.target !== canvas) return;
      g = ev.touches.length === 1 ? { x: ev.touches[0].clientX, y: ev.touches[0].clientY, mode: null } : { mode: 'lab' };
      if (g.mode === 'lab') ev.preventDefault();
    }, { capture: true, passive: false });
    window.addEventListener('touchmove', function (ev) {
      if (!g || ev.target !== canvas) return;
      var t = ev.touches[0];
      if (g.mode === null) {
        var dx = t.clientX - g.x, dy = t.clientY - g.y;
        if (Math.abs(dx) < 4 && Math.abs(dy) < 4) return;   // not a drag yet (cancelling it would stop any scroll)
        if (!ev.cancelable) g.mode = 'page';                 // the browser is scrolling already
        else if (Math.abs(dx) > Math.abs(dy) || frameInfo.popup) g.mode = 'lab';
        else g.mode = scrollTarget(g.x, g.y, 0, -dy) !== null ? 'panel' : 'page';
        if (g.mode !== 'lab') fns.releasePointer();
        g.lastY = g.y;
      }
      if (g.mode === 'lab') { if (ev.cancelable) ev.preventDefault(); return; }
      ev.stopImmediatePropagation();   // SDL does not see the finger move: no drag in the lab
      if (g.mode === 'panel') {
        if (ev.cancelable) ev.preventDefault();
        // Dear ImGui scrolls 5 lines (75 CSS px) per wheel step and SDL makes a step of 100 px.
        var w = new WheelEvent('wheel', { clientX: g.x, clientY: g.y, deltaY: (g.lastY - t.clientY) * 100 / 75, deltaMode: 0, bubbles: true, cancelable: true });
        w.labTouchScroll = true;
        g.lastY = t.clientY;
        canvas.dispatchEvent(w);
      }
    }, { capture: true, passive: false });
    // The end of a gesture the browser scrolled can no longer be cancelled, and SDL would try
    // (a console error): SDL gets a cancelable copy instead, to let go of the mouse button.
    function end(ev) {
      g = null;
      if (ev.target !== canvas || ev.cancelable || ev.labCopy || typeof TouchEvent !== 'function') return;
      ev.stopImmediatePropagation();
      var copy;
      try {
        copy = new TouchEvent(ev.type, { changedTouches: [].slice.call(ev.changedTouches), touches: [].slice.call(ev.touches),
                                         targetTouches: [].slice.call(ev.targetTouches), bubbles: true, cancelable: true });
      } catch (e) { return; }
      copy.labCopy = true;
      canvas.dispatchEvent(copy);
    }
    window.addEventListener('touchend', end, true);
    window.addEventListener('touchcancel', end, true);
  }

  // Text: while a text box of the lab is active, a real (invisible) text input holds the focus,
  // placed over the box's line, so that a phone opens its keyboard there and input methods
  // (composition, insertText, dictation) have somewhere to write. What it receives is typed into
  // the box (C function attnlab_type_text); editing keys (Backspace, arrows, Enter, Ctrl+A...)
  // are handed to SDL as the canvas's own key events. When the box is no longer active (a tap
  // elsewhere, Enter, Escape) the canvas takes the focus back and the keyboard closes.
  var textInput = null;
  function connectTextInput() {
    textInput = el('input', { type: 'text', 'class': 'text-input', autocomplete: 'off', autocapitalize: 'off',
                              autocorrect: 'off', spellcheck: 'false', enterkeyhint: 'done', 'aria-label': 'Attention Lab text' });
    document.body.appendChild(textInput);
    var composing = false;
    function flush() {
      var v = textInput.value;
      textInput.value = '';
      if (v) fns.typeText(v);
    }
    textInput.addEventListener('compositionstart', function () { composing = true; });
    textInput.addEventListener('compositionend', function () { composing = false; flush(); });
    textInput.addEventListener('input', function (ev) { if (!composing && !ev.isComposing) flush(); });
    function send(type, key, code, keyCode, ev) {
      var k = new KeyboardEvent(type, { key: key, code: code, ctrlKey: ev.ctrlKey, shiftKey: ev.shiftKey, altKey: ev.altKey,
                                        metaKey: ev.metaKey, repeat: ev.repeat, bubbles: true, cancelable: true });
      try {
        Object.defineProperty(k, 'keyCode', { value: keyCode });
        Object.defineProperty(k, 'which', { value: keyCode });
      } catch (e) { /* SDL reads code and key too */ }
      canvas.dispatchEvent(k);
    }
    // Ctrl (Cmd) alone is not handed over: Dear ImGui ignores typed and pasted text while it is
    // held. A shortcut (Ctrl+A, Ctrl+C...) is handed over wrapped in its own Ctrl press; Ctrl+V
    // is left to the browser, whose paste event types the text (attnlab_paste).
    function forward(ev) {
      var editing = ev.key && (ev.key.length > 1 || ev.ctrlKey || ev.metaKey) && ev.key !== 'Unidentified' && ev.key !== 'Process';
      if (!editing || composing || ev.isComposing || ev.key === 'Control' || ev.key === 'Meta') return;
      var mod = ev.ctrlKey ? ['Control', 'ControlLeft', 17] : ev.metaKey ? ['Meta', 'MetaLeft', 91] : null;
      if (mod && (ev.key === 'v' || ev.key === 'V')) return;
      if (mod && ev.type === 'keydown') send('keydown', mod[0], mod[1], mod[2], ev);
      send(ev.type, ev.key, ev.code, ev.keyCode, ev);
      if (mod && ev.type === 'keyup') send('keyup', mod[0], mod[1], mod[2], ev);
      // Tab would leave the input; Ctrl+V must reach the browser (it fires the paste event).
      if (ev.key === 'Tab' || ev.key === 'Enter' || ev.key === 'Escape' || /^Arrow|^Page|^Home$|^End$/.test(ev.key)) ev.preventDefault();
    }
    textInput.addEventListener('keydown', forward);
    textInput.addEventListener('keyup', forward);
    // A tap on the canvas inside the active box keeps the keyboard open.
    canvas.addEventListener('pointerdown', function (ev) {
      var t = frameInfo.text;
      if (t && document.activeElement === textInput && ev.clientY >= t.y - 4 && ev.clientY <= t.y + t.h + 8 && ev.clientX <= t.right) ev.labKeepText = true;
    }, true);
  }

  function syncTextInput() {
    if (!textInput) return;
    var t = frameInfo.text;
    if (t) {
      var s = textInput.style;
      s.left = Math.max(0, Math.round(t.x)) + 'px';
      s.top = Math.max(0, Math.round(t.y - 2)) + 'px';
      s.width = Math.max(24, Math.round(t.right - t.x)) + 'px';
      s.height = Math.round(t.h + 4) + 'px';
      if (document.activeElement !== textInput) {
        textInput.value = '';
        try { textInput.focus({ preventScroll: true }); } catch (e) { textInput.focus(); }
      }
    } else if (document.activeElement === textInput) {
      focusCanvas();
    }
  }

  // Auto-height: the lab tells the course page around it how tall it would like to be
  // ({type: 'attentionLab:height', height} in CSS pixels; embed-example.html resizes the iframe).
  // The laptop grid wants about 780 px; the phone layout (one panel at a time) about 900.
  var postedHeight = 0;
  function preferredHeight() { return window.innerWidth < PHONE_WIDTH ? 900 : 780; }
  function postHeight() {
    var h = preferredHeight();
    if (h === postedHeight || status !== 'ready') return;
    postedHeight = h;
    postToParent({ type: 'attentionLab:height', height: h });
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
      paste: Module.cwrap('attnlab_paste', null, ['string']),
      typeText: Module.cwrap('attnlab_type_text', null, ['string']),
      releasePointer: Module.cwrap('attnlab_release_pointer', null, [])
    };
  }

  function onLabReady(Module) {
    if (Module.labSwitchFrom) { switched(Module); return; }
    if (status !== 'loading') return;
    try {
      bind(Module);
      connectPaste(Module);
      connectTextInput();
      connectTouch();
      fns.setPageUrl(pageUrl());
      rawGetState();  // fails loudly here if the exports are missing
      hashEnabled = true;
      applyLinkState(location.hash, true);
      writeHash();
      fetchTuneTextsIfWanted(rawGetState());  // a link that opens in model mode
    } catch (e) {
      fail(e);
      return;
    }
    status = 'ready';
    respectReducedMotion();
    updateWeightsTable();
    hideLoader();
    if (window.parent === window) focusCanvas();
    readyResolve(api);
    postToParent({ type: 'attentionLab:ready', state: rawGetState() });
    postHeight();
  }

  // ---------------------------------------------------------------------------------------
  // Exports (issue 11.5). The lab writes the files (src/platform/export.cpp after its next drawn
  // frame; texts from src/app/figure_export.cpp) and hands them over through Module.onLabExport;
  // a PNG arrives as the GPU's RGBA pixels at 2x and is encoded here (canvas.toBlob). Requests
  // from the page API wait in exportWaiting by id; a choice in an export menu (id 0) is saved.
  var exportWaiting = {};
  var EXPORT_TIMEOUT_MS = 10000;

  function rawExport(options, download) {
    if (!isPlainObject(options)) {
      return Promise.resolve({ ok: false, field: '', error: "export: expected an object like {what: 'weights', format: 'png'}, got " + (options === null ? 'null' : typeof options) });
    }
    var res = parseJSON(fns.exportFigure(JSON.stringify({ what: options.what, format: options.format })), 'attnlab_export');
    if (!res || res.ok !== true) return Promise.resolve({ ok: false, field: (res && res.field) || '', error: (res && res.error) || 'refused' });
    return new Promise(function (resolve) {
      var timer = setTimeout(function () {
        delete exportWaiting[res.id];
        resolve({ ok: false, field: '', error: 'export: the lab did not draw a frame (is the page hidden?)' });
      }, EXPORT_TIMEOUT_MS);
      exportWaiting[res.id] = function (out) {
        clearTimeout(timer);
        if (out.ok && download) saveBlob(out.blob, out.filename);
        resolve(out);
      };
    });
  }

  function exportBlob(msg) {
    if (msg.type !== 'image/png') return Promise.resolve(new Blob([msg.bytes], { type: msg.type }));
    return new Promise(function (resolve, reject) {
      var c = document.createElement('canvas');
      c.width = msg.width;
      c.height = msg.height;
      var g = c.getContext('2d');
      var pixels = new Uint8ClampedArray(msg.bytes.buffer, msg.bytes.byteOffset, msg.bytes.byteLength);
      for (var i = 3; i < pixels.length; i += 4) pixels[i] = 255;   // opaque, like the screen
      g.putImageData(new ImageData(pixels, msg.width, msg.height), 0, 0);
      c.toBlob(function (b) { if (b) resolve(b); else reject(new Error('the browser could not encode the PNG')); }, 'image/png');
    });
  }

  function onExport(msg) {
    var waiting = exportWaiting[msg.id];
    delete exportWaiting[msg.id];
    if (msg.error) {
      var refused = { ok: false, field: msg.field || '', error: msg.error };
      if (waiting) waiting(refused);
      else console.warn('Attention Lab: export: ' + msg.error);
      return;
    }
    exportBlob(msg).then(function (blob) {
      var out = { ok: true, blob: blob, filename: msg.name, type: msg.type, width: msg.width || null, height: msg.height || null };
      if (waiting) waiting(out);
      else if (msg.download) saveBlob(blob, msg.name);
    }, function (e) {
      if (waiting) waiting({ ok: false, field: '', error: String(e && e.message || e) });
    });
  }

  function saveBlob(blob, filename) {
    var url = URL.createObjectURL(blob);
    var a = el('a', { href: url, download: filename, 'class': 'download-link' });
    document.body.appendChild(a);
    a.click();
    document.body.removeChild(a);
    setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
  }

  // ---------------------------------------------------------------------------------------
  // Accessibility (issue 11.9). The canvas is one picture to a screen reader: the weights are
  // also a visually hidden table (the whole matrix up to WHOLE_MATRIX_MAX tokens, else the
  // query's row), rebuilt from getTrace() after every change, in the lab's language, in a polite
  // live region. Keyboard: Dear ImGui's navigation (Tab, arrows, Enter, Space) is on
  // (src/platform/main.cpp). prefers-reduced-motion: no training starts by itself at load (a
  // link's train.play), the CSS has no animations; training the learner starts still updates.
  var WHOLE_MATRIX_MAX = 12;
  var A11Y = {
    en: { caption: 'Attention weights: row = query, column = key; each cell is the weight of that key for that query.',
          captionRow: 'Attention weights of the query "%s" (token %d of %d) over every key.',
          corner: 'query \\ key', key: 'key', weight: 'weight' },
    ru: { caption: 'Веса внимания: строка — запрос, столбец — ключ; в клетке вес этого ключа для этого запроса.',
          captionRow: 'Веса внимания запроса «%s» (токен %d из %d) по всем ключам.',
          corner: 'запрос \\ ключ', key: 'ключ', weight: 'вес' }
  };
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
    var lang = state.lang === 'ru' ? 'ru' : 'en', T = A11Y[lang];
    var tokens = (trace.tokens || []).map(function (x) { return typeof x === 'string' ? x : (x && x.text) || ''; });
    var w = trace.weights || [], n = tokens.length, q = typeof state.query === 'number' ? state.query : 0;
    weightsTableEl.setAttribute('lang', lang);
    weightsTableEl.textContent = '';
    var table = el('table');
    var whole = n <= WHOLE_MATRIX_MAX;
    table.appendChild(el('caption', null, whole ? T.caption
      : T.captionRow.replace('%s', tokens[q] || '').replace('%d', String(q + 1)).replace('%d', String(n))));
    var head = el('tr');
    if (whole) {
      head.appendChild(el('th', { scope: 'col' }, T.corner));
      for (var j = 0; j < n; j++) head.appendChild(el('th', { scope: 'col' }, tokens[j]));
    } else {
      head.appendChild(el('th', { scope: 'col' }, T.key));
      head.appendChild(el('th', { scope: 'col' }, T.weight));
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

  // ---------------------------------------------------------------------------------------
  // postMessage bridge (embedding in a course page). Hygiene: the lab answers only its parent
  // window (event.source === window.parent), and with ?origins=https://a.example,https://b.example
  // in the page's address (the query string; the hash is the state) only parents served from one
  // of those origins; what it posts then goes only to them. Messages are plain data: the lab reads
  // a few typed fields and never evaluates received text.
  var allowedOrigins = parseOrigins(location.search);

  function parseOrigins(search) {
    var m = /[?&]origins=([^&#]*)/.exec(search || '');
    if (!m) return null;
    var list = [];
    var parts = decodeURIComponent(m[1].replace(/\+/g, ' ')).split(/[\s,]+/);
    for (var i = 0; i < parts.length; i++) {
      if (!parts[i]) continue;
      try { list.push(new URL(parts[i]).origin); } catch (e) { console.warn('Attention Lab: ignored origin "' + parts[i] + '" in ?origins='); }
    }
    return list;
  }

  function originAllowed(origin) { return !allowedOrigins || allowedOrigins.indexOf(origin) >= 0; }

  function postToParent(msg) {
    if (window.parent === window) return;
    try {
      if (!allowedOrigins) { window.parent.postMessage(msg, '*'); return; }
      // The browser delivers each copy only if the parent is served from that origin.
      for (var i = 0; i < allowedOrigins.length; i++) window.parent.postMessage(msg, allowedOrigins[i]);
    } catch (e) { /* parent gone */ }
  }

  var KNOWN_REQUESTS = ['attentionLab:setState', 'attentionLab:getState', 'attentionLab:getTrace', 'attentionLab:train',
                        'attentionLab:getTraining', 'attentionLab:getNormalization', 'attentionLab:runNormalization',
                        'attentionLab:export',
                        'attentionLab:getLink', 'attentionLab:getEmbedSnippet'];

  function onMessage(ev) {
    if (window.parent === window || ev.source !== window.parent) return;   // only the parent window
    if (!originAllowed(ev.origin)) return;
    var d = ev.data;
    if (!d || typeof d !== 'object' || typeof d.type !== 'string' || KNOWN_REQUESTS.indexOf(d.type) < 0) return;
    var id = (typeof d.id === 'string' || typeof d.id === 'number') ? d.id : null;
    var source = ev.source, origin = (ev.origin && ev.origin !== 'null') ? ev.origin : '*';
    function reply(result) {
      try { source.postMessage({ type: 'attentionLab:result', id: id, result: result }, origin); } catch (e) { /* source gone */ }
    }
    function run() {
      try {
        if (d.type === 'attentionLab:setState') return api.setState(d.state);
        if (d.type === 'attentionLab:getState') return api.getState();
        if (d.type === 'attentionLab:train') return api.train(d.steps);
        if (d.type === 'attentionLab:getTraining') return api.getTraining();
        if (d.type === 'attentionLab:getNormalization') return api.getNormalization();
        if (d.type === 'attentionLab:runNormalization') return api.runNormalization(d.options);
        if (d.type === 'attentionLab:export') return api['export'](d.options);   // a Promise: the reply carries the Blob
        if (d.type === 'attentionLab:getLink') return api.getLink();
        if (d.type === 'attentionLab:getEmbedSnippet') return api.getEmbedSnippet();
        return api.getTrace();
      } catch (e) {
        return { ok: false, field: '', error: String(e && e.message || e) };
      }
    }
    ready.then(function () {
      var r = run();
      if (r && typeof r.then === 'function') r.then(reply, function (e) { reply({ ok: false, field: '', error: String(e && e.message || e) }); });
      else reply(r);
    }, function (e) { reply({ ok: false, field: '', error: String(e && e.message || e) }); });
  }

  // ---------------------------------------------------------------------------------------
  // Loading
  // Whether this browser has WebGL2 at all. Creating a throw-away context to be sure would cost
  // ~0.2 s of the main thread with a software renderer, before the download even starts: the
  // lab's own context is the real test (main() reports a failure, Module.onLabNoWebGL2).
  function knowsWebGL2() {
    return typeof WebGL2RenderingContext === 'function';
  }

  function noWebGL2() {
    if (status === 'error') return;
    status = 'error';
    failure = new Error('WebGL2 is not available');
    if (readyReject) readyReject(failure);
    showPanel('noWebGL2', null, false);
  }

  function formatMB(bytes) { return (bytes / 1048576).toFixed(1) + ' MB'; }

  function setProgress(received, total) {
    var bar = loaderFill && loaderFill.parentNode;
    if (total > 0 && received <= total) {
      var pct = Math.floor(received * 100 / total);
      if (bar) { bar.className = 'bar'; bar.setAttribute('aria-valuenow', String(pct)); }
      if (loaderFill) loaderFill.style.width = pct + '%';
      if (loaderText) loaderText.textContent = t('downloading') + '… ' + pct + '% (' + formatMB(received) + ' / ' + formatMB(total) + ')';
      if (loaderEl) loaderEl.setAttribute('data-progress', String(pct));
    } else {
      if (bar) { bar.className = 'bar indeterminate'; bar.removeAttribute('aria-valuenow'); }
      if (loaderText) loaderText.textContent = t('downloading') + '… ' + formatMB(received);
      if (loaderEl) loaderEl.setAttribute('data-progress', 'unknown');
    }
  }

  function setStarting() {
    var bar = loaderFill && loaderFill.parentNode;
    if (bar) { bar.className = 'bar'; bar.setAttribute('aria-valuenow', '100'); }
    if (loaderFill) loaderFill.style.width = '100%';
    if (loaderText) loaderText.textContent = t('starting');
    if (loaderEl) loaderEl.setAttribute('data-progress', '100');
  }

  // Fetches the wasm binary, reporting progress; falls back to arrayBuffer() without streams.
  // onFraction (the model's build, fetched while the lab runs): progress as 0..1 to it instead
  // of the loader.
  function downloadWasm(url, onFraction) {
    var show = onFraction ? function (got, total) { onFraction(total > 0 ? Math.min(1, got / total) : 0); } : setProgress;
    // A network failure names the file (the browser's own words, e.g. "Failed to fetch", do not).
    return fetch(url, { credentials: 'same-origin' }).then(null, function (e) {
      throw new Error(url + ': ' + ((e && e.message) || e));
    }).then(function (resp) {
      if (!resp.ok) throw new Error(url + ': HTTP ' + resp.status + (resp.statusText ? ' ' + resp.statusText : ''));
      var total = parseInt(resp.headers.get('Content-Length') || '', 10);
      var enc = resp.headers.get('Content-Encoding');
      if (enc && enc !== 'identity') total = NaN;  // the length counts compressed bytes
      if (!(total > 0)) total = NaN;
      show(0, total);
      if (!resp.body || typeof resp.body.getReader !== 'function') {
        return resp.arrayBuffer().then(function (buf) { show(buf.byteLength, buf.byteLength); return buf; });
      }
      var reader = resp.body.getReader();
      var chunks = [], received = 0;
      function pump() {
        return reader.read().then(function (r) {
          if (r.done) return;
          chunks.push(r.value);
          received += r.value.length;
          show(received, total);
          return pump();
        });
      }
      return pump().then(function () {
        var bytes = new Uint8Array(received), off = 0;
        for (var i = 0; i < chunks.length; i++) { bytes.set(chunks[i], off); off += chunks[i].length; }
        return bytes.buffer;
      });
    });
  }

  // ---------------------------------------------------------------------------------------
  // The trained model's files (issue 13), fetched only when the lab asks (model mode chosen:
  // src/platform/model_files.cpp): the manifest, then every file it lists, with progress; each
  // file's SHA-256 from WebCrypto goes with its bytes and the C++ compares it with the manifest.
  var MODEL_DIR = 'model/';
  var modelFiles = null;  // the promise of {names, bytes, digests}: fetched once, kept until handed over
  function fetchModelFiles(progress) {
    if (modelFiles) return modelFiles;
    var subtle = window.crypto && window.crypto.subtle;
    if (!subtle) console.warn('Attention Lab: this page has no WebCrypto (plain http?): the model files are checked for their structure, not their SHA-256');
    function get(name) {
      return fetch(MODEL_DIR + name).then(null, function (e) {
        throw new Error(name + ': ' + ((e && e.message) || e));
      }).then(function (resp) {
        if (!resp.ok) throw new Error(name + ': HTTP ' + resp.status);
        return resp;
      });
    }
    modelFiles = get('MANIFEST.sha256').then(function (r) { return r.text(); }).then(function (manifest) {
      var names = ['MANIFEST.sha256'];
      manifest.split('\n').forEach(function (line) { if (line.length > 66) names.push(line.slice(66)); });
      var got = {}, total = {}, bytes = {};
      function report() {
        var a = 0, b = 0;
        for (var k in total) { a += got[k] || 0; b += total[k]; }
        progress(b > 0 ? a / b : 0);
      }
      var texts = { 'MANIFEST.sha256': new TextEncoder().encode(manifest) };
      return Promise.all(names.map(function (name) {
        if (texts[name]) { bytes[name] = texts[name]; return null; }
        return get(name).then(function (resp) {
          var n = parseInt(resp.headers.get('Content-Length') || '', 10);
          total[name] = n > 0 && !resp.headers.get('Content-Encoding') ? n : 1e6;
          if (!resp.body || typeof resp.body.getReader !== 'function') {
            return resp.arrayBuffer().then(function (buf) { bytes[name] = new Uint8Array(buf); got[name] = total[name]; report(); });
          }
          var reader = resp.body.getReader(), chunks = [], received = 0;
          function pump() {
            return reader.read().then(function (r) {
              if (r.done) return;
              chunks.push(r.value);
              received += r.value.length;
              got[name] = Math.min(received, total[name]);
              report();
              return pump();
            });
          }
          return pump().then(function () {
            var all = new Uint8Array(received), off = 0;
            for (var i = 0; i < chunks.length; i++) { all.set(chunks[i], off); off += chunks[i].length; }
            bytes[name] = all;
          });
        });
      })).then(function () {
        return Promise.all(names.map(function (name) {
          if (!subtle) return '';
          return subtle.digest('SHA-256', bytes[name]).then(function (d) {
            return Array.prototype.map.call(new Uint8Array(d), function (x) { return (x < 16 ? '0' : '') + x.toString(16); }).join('');
          });
        }));
      }).then(function (digests) {
        return { names: names, bytes: bytes, digests: digests };
      });
    });
    modelFiles.then(null, function () { modelFiles = null; });  // Try again fetches again
    return modelFiles;
  }

  // The running build asks for the model (src/platform/model_files.cpp). The build with the
  // model's code gets the files; the default page's build is replaced by that build first.
  function modelWanted(Module) {
    // (The model's build asks while it starts, before it is the running one: it gets the files.)
    if (Module !== current && !Module.labSwitchFrom) return;
    if (Module._attnlab_model_code()) fetchModel(Module);
    else switchToModelBuild(Module);
  }

  function fetchModel(Module) {
    var handOver = Module.cwrap('attnlab_model_file', null, ['string', 'number', 'string']);
    var done = Module.cwrap('attnlab_model_done', 'string', []);
    var failed = Module.cwrap('attnlab_model_failed', null, ['string']);
    fetchModelFiles(Module.cwrap('attnlab_model_progress', null, ['number'])).then(function (f) {
      modelFiles = null;  // handed over: the page keeps no copy
      f.names.forEach(function (name, i) {
        Module.labModelBytes = f.bytes[name];
        handOver(name, f.bytes[name].length, f.digests[i]);
      });
      Module.labModelBytes = null;
      var error = done();
      if (error) console.warn('Attention Lab: the model was refused: ' + error);
    }).then(null, function (e) {
      var msg = (e && e.message) || String(e);
      console.warn('Attention Lab: the model could not be fetched: ' + msg);
      failed(msg);
    });
  }

  // The switch to the model's build. The running lab keeps working and shows the progress
  // (code and files together) while both download; then it stops (attnlab_stop: no frames, no
  // event handlers, its GL objects freed) and the model's build starts on the same canvas and
  // WebGL context with the lab's state (Module.labCarriedState, applied before its first frame).
  // A failed download is the model's usual failure (message, Try again) in the running lab.
  var switching = false;
  function switchToModelBuild(Old) {
    if (switching) return;
    switching = true;
    var progress = Old.cwrap('attnlab_model_progress', null, ['number']);
    var failed = Old.cwrap('attnlab_model_failed', null, ['string']);
    var code = 0, files = 0;
    function report() { progress(0.5 * code + 0.5 * files); }
    Promise.all([
      loadScript(MODEL_GLUE_URL),
      downloadWasm(MODEL_WASM_URL, function (f) { code = f; report(); }),
      fetchModelFiles(function (f) { files = f; report(); })
    ]).then(function (r) {
      // Compiled while the running lab still answers: it stops only for the instantiation.
      return WebAssembly.compile(r[1]).then(function (module) {
        if (Old !== current || status !== 'ready') { switching = false; return; }
        var state = fns.getState();
        Old._attnlab_stop();
        boot(r[0], module, { from: Old, state: state });
      });
    }).then(null, function (e) {
      switching = false;
      var msg = (e && e.message) || String(e);
      console.warn('Attention Lab: the model could not be fetched: ' + msg);
      if (Old === current) failed(msg);
    });
  }

  // The model's build has drawn its first frames with the carried state: the page API, the
  // listeners and the tune texts move to it. A change the page made while it started (the old
  // build still answered) is carried too.
  function switched(New) {
    var carried = New.labSwitchFrom;
    New.labSwitchFrom = null;
    var latest;
    try {
      latest = fns.getState();
      bind(New);
      fns.setPageUrl(pageUrl());
      if (latest !== carried.state) {
        var r = parseJSON(fns.setState(latest), 'attnlab_set_state');
        if (!r || r.ok !== true) console.warn('Attention Lab: a change did not carry over to the model build: ' + (r && r.error));
      }
    } catch (e) {
      fail(e);
      return;
    }
    current = New;
    switching = false;
    if (tuneTexts) fns.tuneTexts(tuneTexts[0], tuneTexts[1]);
    updateWeightsTable();
  }

  function loadScript(url) {
    return new Promise(function (resolve, reject) {
      var s = document.createElement('script');
      s.src = url;
      s.async = true;
      s.onload = function () {
        if (typeof window.createAttentionLab !== 'function') reject(new Error(url + ' loaded but does not define createAttentionLab'));
        else resolve(window.createAttentionLab);
      };
      s.onerror = function () { reject(new Error('could not load ' + url)); };
      document.body.appendChild(s);
    });
  }

  // switchFrom (the switch to the model's build): {from: the running Module, state: its state}.
  var current = null;  // the Module of the running build
  function boot(factory, wasmBytes, switchFrom) {
    if (!switchFrom) setStarting();
    var slowTimer = setTimeout(function () { if (status === 'loading' && loaderText) loaderText.textContent = t('slow'); }, 20000);
    var Module = {
      canvas: canvas,
      print: function (text) { console.log(text); },
      printErr: function (text) { console.warn(text); },
      instantiateWasm: function (imports, receiveInstance) {
        var bytes = wasmBytes;
        wasmBytes = null;
        // bytes: the download, or (the model's build) a module compiled beforehand
        var compiled = bytes instanceof WebAssembly.Module;
        WebAssembly.instantiate(bytes, imports).then(function (result) {
          if (compiled) receiveInstance(result, bytes);
          else receiveInstance(result.instance, result.module);
        }, function (e) {
          fail(new Error('WebAssembly could not be instantiated: ' + (e && e.message || e)));
        });
        return {};  // exports arrive asynchronously through receiveInstance
      },
      onAbort: function (what) {
        fail(new Error('the lab stopped (abort): ' + (what === undefined ? 'unknown reason' : what)));
      },
      onLabNoWebGL2: function () { clearTimeout(slowTimer); noWebGL2(); },
      onLabReady: function () { clearTimeout(slowTimer); setTimeout(function () { onLabReady(Module); }, 0); },
      onLabStateChanged: function (json) { setTimeout(function () { onStateChanged(json); }, 0); },
      onLabFrame: function (info) { onFrame(info); },
      onLabExport: function (msg) { setTimeout(function () { onExport(msg); }, 0); },
      onLabCopy: function (text) { setTimeout(function () { copyText(text); }, 0); },
      onModelWanted: function () { setTimeout(function () { modelWanted(Module); }, 0); },
      labSwitchFrom: switchFrom || null,
      labCarriedState: switchFrom ? switchFrom.state : null
    };
    if (!switchFrom) current = Module;
    var p;
    try { p = factory(Module); } catch (e) { fail(e); return; }
    if (p && typeof p.then === 'function') p.then(null, function (e) { fail(e); });
  }

  function start() {
    if (typeof WebAssembly !== 'object' || typeof WebAssembly.instantiate !== 'function' ||
        typeof Promise !== 'function' || typeof fetch !== 'function' || typeof Uint8Array !== 'function') {
      status = 'error';
      failure = new Error('WebAssembly is not supported');
      if (readyReject) readyReject(failure);
      showPanel('noWasm', null, false);
      return;
    }
    if (!knowsWebGL2()) {
      noWebGL2();
      return;
    }

    canvas.addEventListener('contextmenu', function (ev) { ev.preventDefault(); });
    // Inside an iframe a click does not give the canvas keyboard focus by itself.
    canvas.addEventListener('pointerdown', function (ev) {
      if (document.activeElement !== canvas && !ev.labKeepText) focusCanvas();
    });
    window.addEventListener('wheel', onWheel, { capture: true, passive: false });
    window.addEventListener('resize', postHeight);
    window.addEventListener('message', onMessage);
    window.addEventListener('hashchange', function () {
      if (status !== 'ready' || location.hash === lastHash) return;
      applyLinkState(location.hash, false);
      writeHash();
    });
    window.addEventListener('error', function (ev) {
      var isWasmError = typeof WebAssembly.RuntimeError === 'function' && ev.error instanceof WebAssembly.RuntimeError;
      if (status === 'loading' || (status === 'ready' && isWasmError)) fail(ev.error || new Error(ev.message));
    });

    Promise.all([loadScript(GLUE_URL), downloadWasm(WASM_URL)]).then(function (r) {
      boot(r[0], r[1]);
    }).then(null, fail);
  }

  start();
})();
