// Loading the lab: the checks for WebAssembly and WebGL2, index.wasm downloaded with a progress
// bar, the Emscripten module booted, and the lab made ready once it has drawn its first frame.

/*
 * Checks WebAssembly and WebGL2 first (plain-HTML message if missing; a browser that has WebGL2
 * but cannot make a context is told by main() through Module.onLabNoWebGL2), downloads
 * index.wasm itself to show a progress bar, loads the Emscripten glue index.js (MODULARIZE,
 * factory createAttentionLab) and hands the bytes over via Module.instantiateWasm. The lab is
 * "ready" after the C++ side calls Module.onLabReady() (first frame drawn).
 */

var WASM_URL = 'index.wasm';
var GLUE_URL = 'index.js';

// State of the loader: attentionLab.status and attentionLab.ready (api.js)
var status = 'loading';
var failure = null;          // Error once loading failed
var readyResolve, readyReject;
var ready = (typeof Promise === 'function') ? new Promise(function (res, rej) { readyResolve = res; readyReject = rej; }) : null;
if (ready) ready['catch'](function () {});  // a failed load is shown in the page, not as an unhandled rejection

function fail(err) {
  if (status === 'error') return;
  var wasReady = status === 'ready';
  status = 'error';
  failure = err instanceof Error ? err : new Error(String(err));
  if (!wasReady && readyReject) readyReject(failure);
  console.error('Attention Lab: ' + failure.message);
  showPanel('failed', failure.message, true);
}

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

// Starts it all (end.js calls it): the checks, the page's own listeners, then the glue and the
// wasm downloaded side by side and booted.
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

  var link = linkParams(location.hash), full = linkWantsFullBuild(link);
  if (link.projection === 'model' && !link.modelUrl) fetchModelFiles(null);  // the model's files beside its build
  function load(glueUrl, wasmUrl) {
    return Promise.all([loadScript(glueUrl), downloadWasm(wasmUrl)]).then(function (r) { boot(r[0], r[1]); });
  }
  // The full build failing to download is no reason not to start: the default build runs and
  // says in its tab what failed, with Try again (as after any switch that failed).
  (full ? load(MODEL_GLUE_URL, MODEL_WASM_URL).then(null, function (e) {
    console.warn('Attention Lab: the full build could not be fetched (' + ((e && e.message) || e) + '): starting the default one');
    return load(GLUE_URL, WASM_URL);
  }) : load(GLUE_URL, WASM_URL)).then(null, fail);
}

// A link that needs the full build (the model's code and the what-if tools: model mode, the What
// if tab, an edit) loads that build first, and only that one, instead of the default build and
// then the switch; in model mode the model's files download beside it. A guess from the link's
// text: the lab still decides, so a wrong guess costs time only (a default build asked for the
// tools moves over, as it does after any change).
function linkParams(hash) {
  var p = {};
  String(hash || '').replace(/^#/, '').split('&').forEach(function (kv) {
    var i = kv.indexOf('=');
    if (i <= 0) return;
    try { p[decodeURIComponent(kv.slice(0, i))] = decodeURIComponent(kv.slice(i + 1)); } catch (e) { /* the lab reports it */ }
  });
  return p;
}
function linkWantsFullBuild(p) {
  return p.projection === 'model' || p.view === 'whatif' || p.modelUrl !== undefined || +p.whatIfToken >= 0 ||
         +p.valueToken >= 0 || (p.shuffle !== undefined && p.shuffle !== 'off') || !!p.knockoutKeys || !!p.knockoutHeads;
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

// A script that defines the function window[name] (createAttentionLab: the Emscripten glue).
function loadScript(url, name) {
  name = name || 'createAttentionLab';
  return new Promise(function (resolve, reject) {
    var s = document.createElement('script');
    s.src = url;
    s.async = true;
    s.onload = function () {
      if (typeof window[name] !== 'function') reject(new Error(url + ' loaded but does not define ' + name));
      else resolve(window[name]);
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
    onModelWanted: function (url) { setTimeout(function () { modelWanted(Module, url); }, 0); },
    onFullBuildWanted: function () { setTimeout(function () { fullBuildWanted(Module); }, 0); },
    labSwitchFrom: switchFrom || null,
    labCarriedState: switchFrom ? switchFrom.state : null,
    labCarriedLesson: switchFrom ? switchFrom.lesson : null
  };
  if (!switchFrom) current = Module;
  var p;
  try { p = factory(Module); } catch (e) { fail(e); return; }
  if (p && typeof p.then === 'function') p.then(null, function (e) { fail(e); });
}

// The first frame is drawn (Module.onLabReady): the page's listeners, the link's state, then
// ready. When the model's build has drawn its first frames instead, the switch ends
// (model_switch.js).
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
