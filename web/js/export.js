// Exports: attentionLab.export() and download() (api.js) and the export menus' choices, as the lab
// hands its files over: PNG pixels encoded by the browser, refusals, files saved by an <a download>.

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
