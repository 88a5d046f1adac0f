// The trained model (model mode): its files fetched only when asked and checked with SHA-256, the
// switch from the default build to the one with the model's code, and "Train it more"'s texts.

// The lab with the trained model's code (model mode): the default page's build has none of it
// (src/model/lab/absent.cpp; issue 11's 500 KB) and moves the lab onto this one when asked.
var MODEL_WASM_URL = 'index-model.wasm';
var MODEL_GLUE_URL = 'index-model.js';

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

// The trained model's files (issue 13), fetched only when the lab asks (model mode chosen:
// src/platform/model_files.cpp): the manifest, then every file it lists, with progress; each
// file's SHA-256 from WebCrypto goes with its bytes and the C++ compares it with the manifest.
var MODEL_DIR = 'model/';
var modelFiles = null;  // the promise of {names, bytes, digests}: fetched once, kept until handed over
var modelProgressTo = null;  // who hears the download's progress (0..1): the latest to ask
function fetchModelFiles(progress) {
  modelProgressTo = progress;
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
      if (modelProgressTo) modelProgressTo(b > 0 ? a / b : 0);
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

// The running build asks for the model (src/platform/model_files.cpp): the lab's own ("") or the
// checkpoint under the state's modelUrl. The build with the model's code gets the files; the
// default page's build is replaced by that build first.
function modelWanted(Module, url) {
  // (The model's build asks while it starts, before it is the running one: it gets the files.)
  if (Module !== current && !Module.labSwitchFrom) return;
  if (!Module._attnlab_model_code()) switchToFullBuild(Module, !url);
  else if (url) checkpoint().then(function (c) { c.open(Module, { url: url }); }, function (e) {
    Module.cwrap('attnlab_model_failed', null, ['string'])(e.message);
  });
  else fetchModel(Module);
}

// A checkpoint opened by address or from the learner's files (web/checkpoint/checkpoint.js):
// fetched when one is opened or the model's build runs, never by the default page.
var checkpointCode = null;
function checkpoint() {
  return checkpointCode || (checkpointCode = loadScript('checkpoint.js', 'attentionLabCheckpoint').then(function (make) {
    return make({ current: function () { return current; }, api: api,
                  full: function () { if (!switching) switchToFullBuild(current, false); } });
  }, function (e) { checkpointCode = null; throw e; }));
}

// The default page's build asks for the what-if tools (src/platform/model_files.cpp): the same
// move to the full build, without the model's files (model mode fetches them when chosen).
function fullBuildWanted(Module) {
  if (Module === current && !Module._attnlab_model_code()) switchToFullBuild(Module, false);
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

// The switch to the full build (the model's code and the what-if tools). The running lab keeps
// working and shows the progress (code, and the model's files when `withModel`) while they download; then it stops (attnlab_stop: no frames, no
// event handlers, its GL objects freed) and the model's build starts on the same canvas and
// WebGL context with the lab's state (Module.labCarriedState, applied before its first frame).
// A failed download is the model's usual failure (message, Try again) in the running lab.
var switching = false;
function switchToFullBuild(Old, withModel) {
  if (switching) return;
  switching = true;
  var kind = withModel ? 'model' : 'tools';
  var progress = Old.cwrap('attnlab_' + kind + '_progress', null, ['number']);
  var failed = Old.cwrap('attnlab_' + kind + '_failed', null, ['string']);
  var code = 0, files = withModel ? 0 : 1;
  function report() { progress(0.5 * code + 0.5 * files); }
  Promise.all([
    loadScript(MODEL_GLUE_URL),
    downloadWasm(MODEL_WASM_URL, function (f) { code = f; report(); }),
    withModel ? fetchModelFiles(function (f) { files = f; report(); }) : null
  ]).then(function (r) {
    // Compiled while the running lab still answers: it stops only for the instantiation.
    return WebAssembly.compile(r[1]).then(function (module) {
      if (Old !== current || status !== 'ready') { switching = false; return; }
      var state = fns.getState(), lesson = fns.getLesson();
      Old._attnlab_stop();
      // An authored lesson goes along (the built-in one is fetched again when needed).
      boot(r[0], module, { from: Old, state: state, lesson: JSON.parse(state).lessonId !== 'seed' ? lesson : null });
    });
  }).then(null, function (e) {
    switching = false;
    var msg = (e && e.message) || String(e);
    console.warn('Attention Lab: the lab\'s full build could not be fetched: ' + msg);
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
  checkpoint().then(function (c) { c.attach(New); }, function () {});
  if (tuneTexts) fns.tuneTexts(tuneTexts[0], tuneTexts[1]);
  updateWeightsTable();
}
