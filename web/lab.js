/*
 * Attention Lab page: loader, window.attentionLab API, URL state, postMessage bridge.
 *
 * Loading: checks WebAssembly and WebGL2 first (plain-HTML message if missing), downloads
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
 * URL state: location.hash, e.g. #sentence=я%20люблю%20суши&query=1&temperature=0.5&lang=ru
 * (numbers as text, booleans as 0/1/true/false). Training settings as train.<field>, e.g.
 * #view=training&train.play=1&train.lr=0.03&train.compare=scaled (only those that differ from
 * the defaults are written). Applied once the lab is ready; kept up to date with
 * history.replaceState on every change.
 *
 * Embedding (iframe): the parent posts {type:'attentionLab:setState', state:{...}, id},
 * {type:'attentionLab:getState', id}, {type:'attentionLab:getTrace', id},
 * {type:'attentionLab:train', steps, id}, {type:'attentionLab:getTraining', id},
 * {type:'attentionLab:getNormalization', id} or {type:'attentionLab:runNormalization', options, id}
 * and receives {type:'attentionLab:result', id, result}. The lab also posts
 * {type:'attentionLab:ready', state} and {type:'attentionLab:change', state} to its parent.
 * See embed-example.html.
 *
 * Clipboard: paste events on the page go to the lab (C function attnlab_paste), since SDL has
 * no clipboard in the browser.
 *
 * Written in ES5 syntax on purpose: an old browser must still parse this file and show the
 * "not supported" message instead of a blank page.
 */
(function () {
  'use strict';

  var WASM_URL = 'index.wasm';
  var GLUE_URL = 'index.js';
  var STILL_LOADING = 'Attention Lab is still loading';

  // Order in which link parameters are written to the hash, and in which they are applied one
  // by one when the whole set is refused (a query index needs its sentence first, dK may depend
  // on dModel, head on heads).
  // Fields the lab adds later need no change here: they follow in the lab's own order.
  var FIELD_ORDER = ['sentence', 'query', 'projection', 'dModel', 'heads', 'dK', 'seed', 'positional',
                     'scaled', 'causal', 'normalizer', 'temperature', 'head', 'lang'];
  var APPLY_ORDER = ['sentence', 'projection', 'dModel', 'heads', 'dK', 'seed', 'positional', 'scaled',
                     'causal', 'normalizer', 'temperature', 'head', 'lang', 'query',
                     'train.task', 'train.length', 'train.example'];
  var TRAIN_PREFIX = 'train.';   // nested training settings in the hash: train.lr=0.03
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
      close: 'Close'
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
      close: 'Закрыть'
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
    if (typeof steps !== 'number' || !isFinite(steps) || Math.floor(steps) !== steps || steps < 0 || steps > MAX_TRAIN_STEPS) {
      return { ok: false, field: 'steps', error: 'steps must be an integer between 0 and ' + MAX_TRAIN_STEPS + ' (got ' + String(steps) + '); call train() again for more' };
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
          return { ok: false, field: prefix + key, error: prefix + key + ' is not valid Unicode text (lone surrogate)' };
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
      writeHash(state);
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
    setState: function (partial) {
      if (!isPlainObject(partial)) throw new TypeError('attentionLab.setState expects a plain object, e.g. {temperature: 0.5}');
      requireReady();
      return rawSetState(partial);
    },
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
  // URL state (location.hash)
  var hashEnabled = false;   // written only after the link state has been applied
  var lastHash = null;
  var trainDefaults = null;  // state.train before the link was applied: only changes go to the hash

  function formatValue(v) {
    if (typeof v === 'boolean') return v ? '1' : '0';
    return String(v);
  }

  function writeHash(state) {
    if (!hashEnabled || !state || typeof state !== 'object') return;
    var parts = [], seen = {};
    function add(k) {
      var v = state[k];
      if (seen[k] || v === null || v === undefined || typeof v === 'object') return;
      seen[k] = true;
      parts.push(encodeURIComponent(k) + '=' + encodeURIComponent(formatValue(v)));
    }
    var i;
    for (i = 0; i < FIELD_ORDER.length; i++) if (FIELD_ORDER[i] in state) add(FIELD_ORDER[i]);
    for (var k in state) if (Object.prototype.hasOwnProperty.call(state, k)) add(k);
    // The training settings that differ from the defaults, as train.<field>.
    var tr = state.train;
    if (tr && typeof tr === 'object' && trainDefaults) {
      for (var f in tr) {
        if (!Object.prototype.hasOwnProperty.call(tr, f)) continue;
        var v = tr[f];
        if (v === null || typeof v === 'object' || v === trainDefaults[f]) continue;
        parts.push(encodeURIComponent(TRAIN_PREFIX + f) + '=' + encodeURIComponent(formatValue(v)));
      }
    }
    var hash = '#' + parts.join('&');
    if (hash === lastHash && location.hash === hash) return;
    lastHash = hash;
    try { history.replaceState(history.state, '', hash); } catch (e) { /* sandboxed frame: no URL state */ }
  }

  // Splits the hash into raw (still encoded) pairs; decoding errors are reported per field.
  function parseHash(hash) {
    var out = { values: {}, errors: [], keys: [] };
    hash = (hash || '').replace(/^#/, '');
    if (!hash) return out;
    var pairs = hash.split('&');
    for (var i = 0; i < pairs.length; i++) {
      if (!pairs[i]) continue;
      var eq = pairs[i].indexOf('=');
      var rawKey = eq < 0 ? pairs[i] : pairs[i].slice(0, eq);
      var rawVal = eq < 0 ? '' : pairs[i].slice(eq + 1);
      var key, val;
      try { key = decodeURIComponent(rawKey.replace(/\+/g, ' ')); } catch (e) { out.errors.push({ field: rawKey, error: 'malformed parameter name' }); continue; }
      try { val = decodeURIComponent(rawVal.replace(/\+/g, ' ')); } catch (e2) { out.errors.push({ field: key, error: 'malformed percent-encoding in the link' }); continue; }
      if (!(key in out.values)) out.keys.push(key);
      out.values[key] = val;
    }
    return out;
  }

  var NUMBER_RE = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;
  // Converts a text value to the type the state uses for that field; values that cannot be
  // converted stay strings, so the lab refuses them with its own message.
  function typed(text, example) {
    if (typeof example === 'number') {
      if (NUMBER_RE.test(text)) return Number(text);
      if (/^\s*(nan|[+-]?inf(inity)?)\s*$/i.test(text)) return null;  // refused as invalid number
      return text;
    }
    if (typeof example === 'boolean') {
      var l = text.trim().toLowerCase();
      if (l === '1' || l === 'true' || l === 'yes' || l === 'on') return true;
      if (l === '0' || l === 'false' || l === 'no' || l === 'off') return false;
      return text;
    }
    return text;
  }

  // Applies the link state: everything at once if possible, otherwise field by field,
  // collecting the refusals. Returns the list of {field, error}.
  function applyLinkState(hash, isInitial) {
    var parsed = parseHash(hash);
    var current = rawGetState();
    var errors = parsed.errors.slice();
    var values = {}, keys = [];
    for (var i = 0; i < parsed.keys.length; i++) {
      var k = parsed.keys[i];
      if (k.indexOf(TRAIN_PREFIX) === 0) {  // train.lr=0.03: a field of the nested train object
        var sub = k.slice(TRAIN_PREFIX.length), tr = current.train;
        if (!tr || typeof tr !== 'object' || !Object.prototype.hasOwnProperty.call(tr, sub) || (tr[sub] !== null && typeof tr[sub] === 'object')) {
          errors.push({ field: k, error: 'unknown parameter' });
          continue;
        }
        values[k] = typed(parsed.values[k], tr[sub]);
        keys.push(k);
        continue;
      }
      if (!Object.prototype.hasOwnProperty.call(current, k) || (current[k] !== null && typeof current[k] === 'object')) {
        errors.push({ field: k, error: 'unknown parameter' });
        continue;
      }
      values[k] = typed(parsed.values[k], current[k]);
      keys.push(k);
    }
    var langFromLink = false;
    for (var e = 0; e < parsed.errors.length; e++) if (parsed.errors[e].field === 'lang') langFromLink = true;
    if (isInitial && !('lang' in values) && !langFromLink && Object.prototype.hasOwnProperty.call(current, 'lang')) {
      values.lang = browserLang();
      keys.push('lang');
    }
    // Flat link keys to a state patch: train.<field> goes into the nested train object.
    function patchOf(names) {
      var p = {};
      for (var m = 0; m < names.length; m++) {
        var name = names[m];
        if (name.indexOf(TRAIN_PREFIX) === 0) (p.train = p.train || {})[name.slice(TRAIN_PREFIX.length)] = values[name];
        else p[name] = values[name];
      }
      return p;
    }
    if (keys.length) {
      var all = rawSetState(patchOf(keys));
      if (!all.ok) {
        var ordered = APPLY_ORDER.filter(function (f) { return f in values; });
        for (var j = 0; j < keys.length; j++) if (ordered.indexOf(keys[j]) < 0) ordered.push(keys[j]);
        // Two passes: a field refused in the first one may depend on one applied after it.
        var lastRefused = null, refused = [];
        for (var pass = 0; pass < 2; pass++) {
          var todo = pass === 0 ? ordered : refused.map(function (x) { return x.key; });
          refused = [];
          lastRefused = null;
          for (var n = 0; n < todo.length; n++) {
            var one = patchOf([todo[n]]);
            var r = rawSetState(one);
            if (!r.ok) { refused.push({ key: todo[n], field: r.field || todo[n], error: r.error }); lastRefused = one; }
          }
          if (!refused.length) break;
        }
        for (var q = 0; q < refused.length; q++) errors.push({ field: refused[q].field, error: refused[q].error });
        // The lab shows its last refusal in the canvas; make sure that refusal is the last call.
        if (lastRefused) rawSetState(lastRefused);
      }
    }
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
    writeHash(state);
    if (state && (state.lang === 'ru' || state.lang === 'en')) document.documentElement.lang = state.lang;
    postToParent({ type: 'attentionLab:change', state: state });
    var ls = listeners.slice();
    for (var i = 0; i < ls.length; i++) {
      try { ls[i](state); } catch (err) { setTimeout(function () { throw err; }); }
    }
  }

  // SDL has no clipboard in the browser: pasted text goes to the lab (C function attnlab_paste,
  // which makes it ImGui's clipboard and types it into the focused text box). Chromium fires no
  // paste event for Ctrl+V on a canvas, so Ctrl+V / Cmd+V briefly moves the focus to a hidden
  // text area that receives the browser's paste. The key still reaches SDL (same event path) but
  // SDL may not cancel it (it cancels every Ctrl key), or the browser would not paste at all.
  // The paste event comes before the lab's next frame, so ImGui's own Ctrl+V already sees the
  // new text; ImGui ignores typed characters while Ctrl is held, so the text is inserted once.
  function connectPaste(Module) {
    if (typeof Module._attnlab_paste !== 'function') return;
    var paste = Module.cwrap('attnlab_paste', null, ['string']);
    var sink = el('textarea', { 'aria-hidden': 'true', tabindex: '-1', autocomplete: 'off', 'class': 'paste-sink' });
    document.body.appendChild(sink);
    function back() { if (document.activeElement === sink) focusCanvas(); }
    window.addEventListener('keydown', function (ev) {
      if (status !== 'ready' || document.activeElement !== canvas) return;
      var v = ev.code === 'KeyV' || ev.key === 'v' || ev.key === 'V';
      if (!(v && (ev.ctrlKey || ev.metaKey) && !ev.altKey && !ev.shiftKey)) return;
      try { Object.defineProperty(ev, 'preventDefault', { value: function () {} }); } catch (e) { /* paste via ImGui only */ }
      sink.value = '';
      try { sink.focus({ preventScroll: true }); } catch (e2) { sink.focus(); }
      setTimeout(back, 50);
    }, true);
    window.addEventListener('paste', function (ev) {
      if (status !== 'ready' || !ev.clipboardData) return;
      if (ev.target !== sink && ev.target !== canvas && ev.target !== document.body && ev.target !== document.documentElement) return;
      var text = ev.clipboardData.getData('text/plain');
      ev.preventDefault();
      back();
      if (text) paste(text);
    });
  }

  function focusCanvas() {
    try { canvas.focus({ preventScroll: true }); } catch (e) { canvas.focus(); }
  }

  function onLabReady(Module) {
    if (status !== 'loading') return;
    try {
      connectPaste(Module);
      fns = {
        getState: Module.cwrap('attnlab_get_state', 'string', []),
        setState: Module.cwrap('attnlab_set_state', 'string', ['string']),
        getTrace: Module.cwrap('attnlab_get_trace', 'string', []),
        train: Module.cwrap('attnlab_train', 'string', ['number']),
        getTraining: Module.cwrap('attnlab_get_training', 'string', []),
        getNormalization: Module.cwrap('attnlab_get_normalization', 'string', []),
        runNormalization: Module.cwrap('attnlab_run_normalization', 'string', ['string'])
      };
      var initial = rawGetState();  // fails loudly here if the exports are missing
      trainDefaults = (initial.train && typeof initial.train === 'object') ? initial.train : null;
      hashEnabled = true;
      applyLinkState(location.hash, true);
      writeHash(rawGetState());
    } catch (e) {
      fail(e);
      return;
    }
    status = 'ready';
    hideLoader();
    if (window.parent === window) focusCanvas();
    readyResolve(api);
    postToParent({ type: 'attentionLab:ready', state: rawGetState() });
  }

  // ---------------------------------------------------------------------------------------
  // postMessage bridge (embedding in a course page)
  function postToParent(msg) {
    if (window.parent === window) return;
    try { window.parent.postMessage(msg, '*'); } catch (e) { /* parent gone */ }
  }

  function onMessage(ev) {
    var d = ev.data;
    if (!d || typeof d !== 'object' || typeof d.type !== 'string') return;
    var known = ['attentionLab:setState', 'attentionLab:getState', 'attentionLab:getTrace', 'attentionLab:train',
                 'attentionLab:getTraining', 'attentionLab:getNormalization', 'attentionLab:runNormalization'];
    if (known.indexOf(d.type) < 0) return;
    if (ev.source !== window.parent && ev.source !== window) return;
    var source = ev.source, origin = (ev.origin && ev.origin !== 'null') ? ev.origin : '*';
    function reply(result) {
      try { source.postMessage({ type: 'attentionLab:result', id: d.id, result: result }, origin); } catch (e) { /* source gone */ }
    }
    function run() {
      try {
        if (d.type === 'attentionLab:setState') return api.setState(d.state);
        if (d.type === 'attentionLab:getState') return api.getState();
        if (d.type === 'attentionLab:train') return api.train(d.steps);
        if (d.type === 'attentionLab:getTraining') return api.getTraining();
        if (d.type === 'attentionLab:getNormalization') return api.getNormalization();
        if (d.type === 'attentionLab:runNormalization') return api.runNormalization(d.options);
        return api.getTrace();
      } catch (e) {
        return { ok: false, field: '', error: String(e && e.message || e) };
      }
    }
    ready.then(function () { reply(run()); }, function (e) { reply({ ok: false, field: '', error: String(e && e.message || e) }); });
  }

  // ---------------------------------------------------------------------------------------
  // Loading
  function hasWebGL2() {
    try {
      var c = document.createElement('canvas');
      var gl = c.getContext('webgl2');
      if (!gl) return false;
      var lose = gl.getExtension('WEBGL_lose_context');
      if (lose) lose.loseContext();
      return true;
    } catch (e) {
      return false;
    }
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
  function downloadWasm(url) {
    return fetch(url, { credentials: 'same-origin' }).then(function (resp) {
      if (!resp.ok) throw new Error(url + ': HTTP ' + resp.status + (resp.statusText ? ' ' + resp.statusText : ''));
      var total = parseInt(resp.headers.get('Content-Length') || '', 10);
      var enc = resp.headers.get('Content-Encoding');
      if (enc && enc !== 'identity') total = NaN;  // the length counts compressed bytes
      if (!(total > 0)) total = NaN;
      setProgress(0, total);
      if (!resp.body || typeof resp.body.getReader !== 'function') {
        return resp.arrayBuffer().then(function (buf) { setProgress(buf.byteLength, buf.byteLength); return buf; });
      }
      var reader = resp.body.getReader();
      var chunks = [], received = 0;
      function pump() {
        return reader.read().then(function (r) {
          if (r.done) return;
          chunks.push(r.value);
          received += r.value.length;
          setProgress(received, total);
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

  function boot(factory, wasmBytes) {
    setStarting();
    var slowTimer = setTimeout(function () { if (status === 'loading' && loaderText) loaderText.textContent = t('slow'); }, 20000);
    var Module = {
      canvas: canvas,
      print: function (text) { console.log(text); },
      printErr: function (text) { console.warn(text); },
      instantiateWasm: function (imports, receiveInstance) {
        var bytes = wasmBytes;
        wasmBytes = null;
        WebAssembly.instantiate(bytes, imports).then(function (result) {
          receiveInstance(result.instance, result.module);
        }, function (e) {
          fail(new Error('WebAssembly could not be instantiated: ' + (e && e.message || e)));
        });
        return {};  // exports arrive asynchronously through receiveInstance
      },
      onAbort: function (what) {
        fail(new Error('the lab stopped (abort): ' + (what === undefined ? 'unknown reason' : what)));
      },
      onLabReady: function () { clearTimeout(slowTimer); setTimeout(function () { onLabReady(Module); }, 0); },
      onLabStateChanged: function (json) { setTimeout(function () { onStateChanged(json); }, 0); }
    };
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
    if (!hasWebGL2()) {
      status = 'error';
      failure = new Error('WebGL2 is not available');
      readyReject(failure);
      showPanel('noWebGL2', null, false);
      return;
    }

    canvas.addEventListener('contextmenu', function (ev) { ev.preventDefault(); });
    // Inside an iframe a click does not give the canvas keyboard focus by itself.
    canvas.addEventListener('pointerdown', function () {
      if (document.activeElement !== canvas) focusCanvas();
    });
    window.addEventListener('message', onMessage);
    window.addEventListener('hashchange', function () {
      if (status !== 'ready' || location.hash === lastHash) return;
      applyLinkState(location.hash, false);
      writeHash(rawGetState());
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
