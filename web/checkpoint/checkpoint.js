// Opening a GPT-2-family checkpoint in the page (docs/models.md): from a URL prefix (#modelUrl=,
// attentionLab.loadModel({url})) or from the learner's files (the "Open a model folder…" picker,
// a folder or its files dropped onto the lab, loadModel({files})). Fetched by lab.js
// (model_switch.js) only when a model is opened or the build with the model's code runs: never by
// the default page. Its C side is src/platform/web_checkpoint.cpp.
//
// The weights stream tensor by tensor into the model's memory, never whole in JavaScript (a
// browser cannot make one ArrayBuffer of more than about 2 GB): each weight file's 8-byte length,
// then its header (HTTP Range requests), then the lab checks every tensor and the memory it needs
// and refuses before a byte of the weights is fetched; then the tensors, a few adjacent ones per
// request (at most CHUNK bytes). A server that ignores Range is read as one stream, in order.
// Downloaded pieces are kept in the browser's Cache API, keyed by the file's URL, size and ETag
// and the byte range: a second visit opens the model without downloading its weights again.
(function () {
  'use strict';

  var CACHE = 'attnlab-models-v1';
  var CHUNK = 32 * 1024 * 1024;  // a request takes adjacent tensors up to this many bytes
  var TOKENIZER_FILES = ['attnlab-tokenizer.json', 'tokenizer.json'];  // else vocab.json + merges.txt
  var WAIT_MS = 100;

  function error(message) { return new Error(message); }
  function bytesOf(buffer) { return buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer); }

  // ---- the browser's storage (Cache API; none over plain http except on localhost) -----------
  function openCache() {
    if (typeof caches === 'undefined' || !window.isSecureContext) return Promise.resolve(null);
    return caches.open(CACHE).then(null, function () { return null; });
  }
  function cachedBytes(cache, key) {
    if (!cache) return Promise.resolve(null);
    return cache.match(key).then(function (r) { return r ? r.arrayBuffer().then(bytesOf) : null; }, function () { return null; });
  }
  function keep(cache, key, bytes) {
    if (!cache) return Promise.resolve();
    var r = new Response(bytes, { headers: { 'Content-Type': 'application/octet-stream', 'X-Attnlab-Size': String(bytes.length) } });
    return cache.put(key, r).then(null, function (e) {  // full storage: the model still opens
      console.warn('Attention Lab: a downloaded piece could not be kept in the browser: ' + ((e && e.message) || e));
    });
  }
  // The bytes the kept pieces take (each says its size: no body is read).
  function cacheSize() {
    return openCache().then(function (cache) {
      if (!cache) return 0;
      return cache.keys().then(function (keys) {
        return Promise.all(keys.map(function (k) { return cache.match(k); })).then(function (rs) {
          var n = 0;
          rs.forEach(function (r) { n += (r && parseInt(r.headers.get('X-Attnlab-Size') || '0', 10)) || 0; });
          return n;
        });
      });
    }, function () { return 0; });
  }

  // ---- sources: a URL prefix, or the learner's files ---------------------------------------
  // {name, text(file, optional) -> Promise of Uint8Array (null when optional and absent),
  //  weights(file) -> Promise of {size, read(begin, end) -> Promise of Uint8Array}}

  // The model's name from its address: a Hub address's repository (…/gpt2/resolve/main/), else the
  // last part of the path.
  function nameOfUrl(prefix) {
    var parts = prefix.replace(/[?#].*$/, '').split('/').filter(function (p) { return p; });
    var i = parts.lastIndexOf('resolve');
    var name = i > 3 ? parts[i - 1] : parts[parts.length - 1] || prefix;
    try { return decodeURIComponent(name); } catch (e) { return name; }
  }

  function urlSource(prefix, signal) {
    var base;
    try { base = new URL(prefix, location.href); } catch (e) { throw error('modelUrl "' + prefix + '" is not an address'); }
    if (base.protocol !== 'https:' && base.protocol !== 'http:') throw error('modelUrl must be an http or https address, not ' + base.protocol);
    var root = base.href.replace(/[?#].*$/, '').replace(/\/*$/, '/');
    function get(file, range) {
      var init = { signal: signal };
      if (range) init.headers = { Range: 'bytes=' + range[0] + '-' + (range[1] - 1) };
      return fetch(root + file, init).then(null, function (e) {
        if (signal.aborted) throw e;
        throw error(file + ': ' + ((e && e.message) || e) + ' (is the address right, and does its server allow this page to read it: CORS?)');
      });
    }
    return {
      name: nameOfUrl(root),
      text: function (file, optional) {
        return get(file).then(function (r) {
          if (r.status === 404 && optional) return null;
          if (!r.ok) throw error(file + ': HTTP ' + r.status);
          return r.arrayBuffer().then(bytesOf);
        });
      },
      weights: function (file, cache) {
        return get(file, [0, 8]).then(function (r) {
          if (!r.ok) throw error(file + ': HTTP ' + r.status);
          var size = NaN, range = r.headers.get('Content-Range');
          if (r.status === 206 && range && /\/\d+$/.test(range)) size = parseInt(range.split('/')[1], 10);
          else if (r.status === 200) size = parseInt(r.headers.get('Content-Length') || '', 10);
          if (!(size >= 0)) throw error(file + ': the server does not say the file\'s size (Content-Range or Content-Length)');
          var version = root + file + '?attnlab=' + size + '-' + encodeURIComponent(r.headers.get('ETag') || '');
          if (r.status === 206) {
            var first = r.arrayBuffer().then(bytesOf);
            return {
              size: size,
              read: function (begin, end, onBytes) {
                if (begin === 0 && end === 8) return first;
                var key = version + '&bytes=' + begin + '-' + end;
                return cachedBytes(cache, key).then(function (kept) {
                  if (kept && kept.length === end - begin) return kept;
                  return get(file, [begin, end]).then(function (p) {
                    if (p.status !== 206) throw error(file + ': HTTP ' + p.status + ' to a request for bytes ' + begin + '-' + (end - 1));
                    return body(p, end - begin, onBytes).then(function (bytes) {
                      if (bytes.length !== end - begin) throw error(file + ': ' + bytes.length + ' bytes came for ' + (end - begin));
                      return keep(cache, key, bytes).then(function () { return bytes; });
                    });
                  });
                });
              }
            };
          }
          return { size: size, read: streamReader(file, r) };  // the server ignored Range
        });
      }
    };
  }

  // A response's body of `n` bytes, read as it comes (onBytes(bytes so far): the progress bar).
  function body(response, n, onBytes) {
    if (!onBytes || !response.body || typeof response.body.getReader !== 'function') return response.arrayBuffer().then(bytesOf);
    var reader = response.body.getReader(), out = new Uint8Array(n), filled = 0;
    return (function pump() {
      return reader.read().then(function (c) {
        if (c.done) return filled === n ? out : out.subarray(0, filled);
        if (filled + c.value.length > n) throw error('more bytes came than asked for');
        out.set(c.value, filled);
        filled += c.value.length;
        onBytes(filled);
        return pump();
      });
    })();
  }

  // A whole-file response read forward only: every read starts at or after the last one's end.
  function streamReader(file, response) {
    var reader = response.body.getReader(), pos = 0, pending = new Uint8Array(0);
    return function read(begin, end) {
      if (begin < pos) return Promise.reject(error(file + ': the server does not allow ranges and the file must be read in order'));
      var out = new Uint8Array(end - begin), filled = 0;
      function step() {
        while (pending.length && filled < out.length) {
          var skip = Math.min(Math.max(begin - pos, 0), pending.length);
          pending = pending.subarray(skip);
          pos += skip;
          if (pos < begin) break;
          var n = Math.min(pending.length, out.length - filled);
          out.set(pending.subarray(0, n), filled);
          filled += n;
          pending = pending.subarray(n);
          pos += n;
        }
        if (filled === out.length) return Promise.resolve(out);
        return reader.read().then(function (c) {
          if (c.done) throw error(file + ': the file ends at byte ' + pos + ', before ' + end);
          pending = c.value;
          return step();
        });
      }
      return step();
    };
  }

  // The learner's files: by their names (a picked or dropped folder's files; its sub-folders are
  // not the model's).
  function filesSource(list) {
    var byName = {}, folder = '';
    for (var i = 0; i < list.length; i++) {
      var f = list[i];
      if (!f || typeof f.slice !== 'function' || typeof f.name !== 'string')
        throw new TypeError('attentionLab.loadModel: files must be File objects (an <input type="file"> gives them)');
      var path = (f.webkitRelativePath || f.name).split('/');
      if (path.length > 2) continue;
      if (path.length === 2) folder = path[0];
      byName[path[path.length - 1]] = f;
    }
    function read(f, begin, end) {
      return f.slice(begin, end).arrayBuffer().then(bytesOf);
    }
    return {
      name: folder || (byName['config.json'] ? 'files' : ''),
      text: function (file, optional) {
        if (!byName[file]) return optional ? Promise.resolve(null) : Promise.reject(error(file + ': not among the files given'));
        return read(byName[file], 0, byName[file].size);
      },
      weights: function (file) {
        var f = byName[file];
        if (!f) return Promise.reject(error(file + ': not among the files given'));
        return Promise.resolve({ size: f.size, read: function (begin, end) { return read(f, begin, end); } });
      }
    };
  }

  // A dropped folder's files (its entries, one level down) or the dropped files themselves.
  function droppedFiles(dt) {
    var items = dt.items ? Array.prototype.slice.call(dt.items) : [];
    var entries = items.map(function (it) { return it.webkitGetAsEntry ? it.webkitGetAsEntry() : null; });
    var dir = entries.length === 1 && entries[0] && entries[0].isDirectory ? entries[0] : null;
    if (!dir) return Promise.resolve(Array.prototype.slice.call(dt.files || []));
    return new Promise(function (resolve, reject) {
      var reader = dir.createReader(), all = [];
      (function more() {
        reader.readEntries(function (batch) {
          if (!batch.length) {
            Promise.all(all.filter(function (e) { return e.isFile; }).map(function (e) {
              return new Promise(function (res, rej) { e.file(res, rej); });
            })).then(resolve, reject);
            return;
          }
          all = all.concat(Array.prototype.slice.call(batch));
          more();
        }, reject);
      })();
    }).then(function (files) {
      files.folderName = dir.name;
      return files;
    });
  }

  // ---- the factory lab.js calls: host {current(), full(), api} ---------------------------------
  window.attentionLabCheckpoint = function (host) {
    var running = null;   // the load in progress: {stop(): drops it}
    var opened = [];      // [url, promise] of the loads opened by address (loadModel waits on them)

    // Loads `src` ({url} or {files}) into Module (the build with the model's code); the promise
    // resolves when the model is the lab's, rejects with the refusal (shown in the lab too).
    function open(Module, what) {
      if (running) running.stop(false);
      var ctl = typeof AbortController === 'function' ? new AbortController() : { signal: {}, abort: function () {} };
      var job = { stopped: false };
      var src;
      try {
        src = what.url !== undefined ? urlSource(String(what.url), ctl.signal) : filesSource(what.files);
        if (what.folderName) src.name = what.folderName;
      } catch (e) {
        Module.cwrap('attnlab_checkpoint_begin', null, ['string'])('');
        Module.cwrap('attnlab_checkpoint_fail', null, ['string'])(e.message);
        return Promise.reject(e);
      }
      var begin = Module.cwrap('attnlab_checkpoint_begin', null, ['string']);
      var text = Module.cwrap('attnlab_checkpoint_text', 'string', ['string']);
      var files = Module.cwrap('attnlab_checkpoint_files', 'string', []);
      var length = Module.cwrap('attnlab_checkpoint_length', 'string', ['number', 'number']);
      var header = Module.cwrap('attnlab_checkpoint_header', 'string', ['number', 'number']);
      var plan = Module.cwrap('attnlab_checkpoint_plan', 'string', []);
      var take = Module.cwrap('attnlab_checkpoint_take', 'string', ['number']);
      var finish = Module.cwrap('attnlab_checkpoint_finish', 'string', []);
      var fail = Module.cwrap('attnlab_checkpoint_fail', null, ['string']);
      var cancel = Module.cwrap('attnlab_checkpoint_cancel', null, []);
      var progress = Module.cwrap('attnlab_checkpoint_progress', null, ['number']);
      var lastProgress = 0;
      function onBytes(n) {  // at most every 100 ms
        var now = Date.now();
        if (now - lastProgress < WAIT_MS || job.stopped) return;
        lastProgress = now;
        progress(n);
      }
      job.stop = function (byLearner) {
        if (job.stopped) return;
        job.stopped = true;
        ctl.abort();
        if (byLearner) cancel();
        if (running === job) running = null;
      };
      running = job;
      // A call with `bytes` handed over: its answer, or the refusal (the lab already shows it).
      function call(f, bytes, args) {
        if (job.stopped) throw error('the download was cancelled');
        Module.labModelBytes = bytes || null;
        var r;
        try { r = JSON.parse(f.apply(null, args || [])); } finally { Module.labModelBytes = null; }
        if (!r.ok) { var e = error(r.error); e.shown = true; throw e; }
        return r;
      }
      var cache = null, weights = [];
      begin(src.name);
      var done = openCache().then(function (c) {
        cache = what.url !== undefined ? c : null;  // the learner's own files are not copied
        return src.text('config.json');
      }).then(function (config) {
        call(text, config, ['config.json']);
        return src.text('model.safetensors.index.json', true);
      }).then(function (index) {
        if (index) call(text, index, ['model.safetensors.index.json']);
        // the tokenizer: the first of the lab's order that is there (model_folder.h)
        var names = TOKENIZER_FILES.slice();
        function next() {
          if (!names.length) {
            return src.text('vocab.json', true).then(function (v) {
              if (!v) return;
              call(text, v, ['vocab.json']);
              return src.text('merges.txt', true).then(function (m) { if (m) call(text, m, ['merges.txt']); });
            });
          }
          var name = names.shift();
          return src.text(name, true).then(function (t) { if (t) call(text, t, [name]); else return next(); });
        }
        return next();
      }).then(function () {
        // tokenizer_config.json: whether a begin token is added (add_bos_token), when the folder says
        return src.text('tokenizer_config.json', true).then(function (t) { if (t) call(text, t, ['tokenizer_config.json']); });
      }).then(function () {
        var list = call(files).files;
        // every file's length and header, in turn, before any weight
        return list.reduce(function (p, name, k) {
          return p.then(function () { return src.weights(name, cache); }).then(function (w) {
            weights[k] = w;
            return w.read(0, Math.min(8, w.size)).then(function (first) {
              var n = call(length, first, [k, w.size]).length;
              return w.read(8, 8 + n);
            }).then(function (h) { call(header, h, [k, w.size]); });
          });
        }, Promise.resolve());
      }).then(function () {
        var pieces = call(plan).pieces;
        // adjacent pieces of a file in one request, up to CHUNK bytes
        var chunks = [];
        pieces.forEach(function (p, k) {
          var last = chunks[chunks.length - 1];
          if (last && last.file === p[0] && last.end === p[1] && p[2] - last.begin <= CHUNK) {
            last.end = p[2];
            last.pieces.push(k);
          } else {
            chunks.push({ file: p[0], begin: p[1], end: p[2], pieces: [k] });
          }
        });
        return chunks.reduce(function (p, c) {
          return p.then(function () { return weights[c.file].read(c.begin, c.end, onBytes); }).then(function (bytes) {
            c.pieces.forEach(function (k) {
              call(take, bytes.subarray(pieces[k][1] - c.begin, pieces[k][2] - c.begin), [k]);
            });
          });
        }, Promise.resolve());
      }).then(function () {
        call(finish);
        if (running === job) running = null;
        reportCacheSize(Module);
        return host.api.getModelStatus();
      }).then(null, function (e) {
        if (running === job) running = null;
        if (job.stopped) throw error('the download was cancelled');
        if (!e.shown) fail((e && e.message) || String(e));
        throw e;
      });
      done.then(null, function () {});  // shown in the lab; loadModel's caller gets it too
      return done;
    }

    function reportCacheSize(Module) {
      cacheSize().then(function (n) { Module.cwrap('attnlab_checkpoint_cache', null, ['number'])(n); });
    }

    // The build with the model's code running (the default page's switches to it first).
    function fullBuild() {
      var t0 = Date.now();
      return new Promise(function (resolve, reject) {
        (function poll() {
          var M = host.current();
          if (M && M._attnlab_model_code && M._attnlab_model_code() && !M.labSwitchFrom) return resolve(M);
          if (Date.now() - t0 > 120000) return reject(error('the lab\'s full build did not start'));
          host.full();
          setTimeout(poll, WAIT_MS);
        })();
      });
    }

    // The interface's buttons and a drop onto the lab, on the build with the model's code.
    function attach(Module) {
      Module.onOpenModelWanted = pick;
      Module.onModelCancel = function () { if (running) running.stop(true); };
      Module.onForgetModels = function () { forget(); };
      reportCacheSize(Module);
    }

    function pick() {
      var input = document.createElement('input');
      input.type = 'file';
      input.multiple = true;
      if ('webkitdirectory' in input) input.webkitdirectory = true;  // a folder (not on phones: its files)
      input.onchange = function () { if (input.files && input.files.length) loadFiles(Array.prototype.slice.call(input.files)); };
      input.click();
    }

    function loadFiles(list, folderName) {
      return fullBuild().then(function (M) {
        return open(M, { files: list, folderName: folderName });
      }).then(function (st) {
        var r = host.api.setState({ projection: 'model', layer: 0, head: 0, target: -1 });
        if (!r.ok) throw error(r.error);
        return host.api.getModelStatus();
      }).then(null, function (e) {
        console.warn('Attention Lab: the model was not opened: ' + e.message);
        throw e;
      });
    }

    document.addEventListener('dragover', function (ev) {
      if (ev.dataTransfer && Array.prototype.indexOf.call(ev.dataTransfer.types || [], 'Files') >= 0) ev.preventDefault();
    });
    document.addEventListener('drop', function (ev) {
      if (!ev.dataTransfer || !(ev.dataTransfer.files || []).length) return;
      ev.preventDefault();
      droppedFiles(ev.dataTransfer).then(function (files) {
        return loadFiles(files, files.folderName);
      }).then(null, function () {});
    });

    // attentionLab.loadModel({url} | {files}): a promise of getModelStatus() once the model is
    // the lab's; rejected with the refusal.
    function load(o) {
      if (!o || typeof o !== 'object' || (typeof o.url !== 'string' && !o.files))
        return Promise.reject(new TypeError('attentionLab.loadModel expects {url: "https://…/"} or {files: FileList}'));
      if (o.files) {
        if (typeof o.files.length !== 'number') return Promise.reject(new TypeError('attentionLab.loadModel: files must be a FileList or an array of File'));
        return loadFiles(Array.prototype.slice.call(o.files));
      }
      var st = host.api.getState();
      var ms = host.api.getModelStatus();
      if (st.modelUrl === o.url && st.projection === 'model' && ms.load === 'ready' && ms.model) return Promise.resolve(ms);
      var t0 = Date.now();
      opened = [];
      var r = host.api.setState({ modelUrl: o.url, projection: 'model', layer: 0, head: 0, target: -1 });
      if (!r.ok) return Promise.reject(error(r.error));
      // the lab asks for it (after a switch to the full build, if need be): wait for that load
      return new Promise(function (resolve, reject) {
        (function poll() {
          for (var i = 0; i < opened.length; i++) if (opened[i][0] === o.url) return opened[i][1].then(resolve, reject);
          var s = host.api.getModelStatus();
          if (s.load === 'failed' && !opened.length && Date.now() - t0 > 1000) return reject(error(s.message));
          if (Date.now() - t0 > 120000) return reject(error('the model was not asked for'));
          setTimeout(poll, WAIT_MS);
        })();
      });
    }

    function forget() {
      var before;
      return cacheSize().then(function (n) {
        before = n;
        return typeof caches === 'undefined' ? false : caches['delete'](CACHE);
      }).then(function () {
        var M = host.current();
        if (M && M._attnlab_model_code && M._attnlab_model_code()) reportCacheSize(M);
        return { ok: true, freedBytes: before };
      });
    }

    return {
      open: function (Module, what) {
        attach(Module);
        var p = open(Module, what);
        if (what.url !== undefined) opened.push([what.url, p]);
        return p;
      },
      attach: attach,
      load: load,
      forget: forget,
      cacheSize: cacheSize
    };
  };
})();
