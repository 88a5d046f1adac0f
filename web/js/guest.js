// A good guest of the course page around the lab: the wheel and touch scroll the page where the
// lab cannot, the height the iframe should have, and the postMessage bridge to the parent.

/*
 * Embedding (iframe): the parent posts {type:'attentionLab:setState', state:{...}, id},
 * {type:'attentionLab:getState', id}, {type:'attentionLab:getTrace', id},
 * {type:'attentionLab:train', steps, id}, {type:'attentionLab:getTraining', id},
 * {type:'attentionLab:getNormalization', id}, {type:'attentionLab:runNormalization', options, id},
 * {type:'attentionLab:export', options, id} (the result carries the Blob),
 * {type:'attentionLab:getLink', id}, {type:'attentionLab:getEmbedSnippet', id},
 * {type:'attentionLab:setLesson', lesson, id} (a lesson document: docs/lessons.md),
 * {type:'attentionLab:answerLesson', choice, id} or {type:'attentionLab:getLessonProgress', id}
 * and receives {type:'attentionLab:result', id, result}. The lab also posts
 * {type:'attentionLab:ready', state} and {type:'attentionLab:change', state} to its parent, and
 * for a lesson {type:'attentionLab:answer', step, choice, correct, lessonId} after each answer and
 * {type:'attentionLab:lessonDone', lessonId, total, answered, correct, answers} at its end.
 * See embed-example.html.
 */

// What the lab last drew. It draws only when something changed (the C++ side,
// src/platform/main.cpp); after every frame it drew it reports here (Module.onLabFrame) what
// the page needs to decide between frames: the scrollable areas with their scroll positions,
// whether a popup is open or an item is held, the active text box and the height it would like.
var frameInfo = { areas: [], popup: false, active: false, text: null, wanted: 0 };

function onFrame(info) {
  var moved = info.wanted !== frameInfo.wanted;
  frameInfo = info;
  syncTextInput();
  if (moved) postHeight();
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

// Auto-height: the lab tells the course page around it how tall it would like to be
// ({type: 'attentionLab:height', height} in CSS pixels; embed-example.html resizes the iframe):
// the height of what it shows, reported with every drawn frame (src/ui/layout.cpp, WantedHeight).
// It never depends on the iframe's own height, so a resize cannot feed back into it. Posted once
// it has been still for 200 ms, and only when it moved by more than a few pixels.
var postedHeight = 0, heightTimer = 0;
function postHeight() {
  clearTimeout(heightTimer);
  heightTimer = setTimeout(function () {
    var h = Math.round(frameInfo.wanted || 0);
    if (status !== 'ready' || !h || Math.abs(h - postedHeight) < 4) return;
    postedHeight = h;
    postToParent({ type: 'attentionLab:height', height: h });
  }, 200);
}

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

// Every request a parent can post: the type after "attentionLab:" names the page API's call, and
// the value here the message's field that is its argument ('' for none; docs/page-api.md, "The
// page API through postMessage", lists them).
// Every request is answered: {type: 'attentionLab:result', id, result}, the result being the
// call's, or {ok: false, field, error} naming the call when it threw or the type is unknown.
var REQUESTS = {
  setState: 'state', getState: '', getTrace: '', getLink: '', getEmbedSnippet: '', getBuild: '',
  train: 'steps', getTraining: '', getNormalization: '', runNormalization: 'options',
  'export': 'options', download: 'options',   // a Promise: the reply carries the Blob
  setLesson: 'lesson', getLesson: '', answerLesson: 'choice', getLessonProgress: '',
  getModelStatus: '', probeHead: '', tuneModel: 'options', getTuneStatus: '', stopTune: '', resetTune: '',
  loadModel: 'options', forgetDownloadedModels: '',
  getLens: '', getAttribution: 'options', runPatching: 'options', generate: 'options', cancelJob: ''
};
// What the lab posts itself: never answered, so that a parent echoing messages back makes no loop.
var OWN_MESSAGES = ['attentionLab:result', 'attentionLab:ready', 'attentionLab:height', 'attentionLab:change',
                    'attentionLab:answer', 'attentionLab:lessonDone'];

function onMessage(ev) {
  if (window.parent === window || ev.source !== window.parent) return;   // only the parent window
  if (!originAllowed(ev.origin)) return;
  var d = ev.data;
  if (!d || typeof d !== 'object' || typeof d.type !== 'string' || OWN_MESSAGES.indexOf(d.type) >= 0) return;
  var id = (typeof d.id === 'string' || typeof d.id === 'number') ? d.id : null;
  var source = ev.source, origin = (ev.origin && ev.origin !== 'null') ? ev.origin : '*';
  var name = d.type.indexOf('attentionLab:') === 0 ? d.type.slice('attentionLab:'.length) : null;
  var known = name !== null && Object.prototype.hasOwnProperty.call(REQUESTS, name);
  function reply(result) {
    try { source.postMessage({ type: 'attentionLab:result', id: id, result: result }, origin); } catch (e) { /* source gone */ }
  }
  function failed(e) {
    var text = String(e && e.message || e);
    return { ok: false, field: '', error: text.indexOf(d.type) === 0 ? text : d.type + ': ' + text };
  }
  if (!known) {
    reply({ ok: false, field: 'type', error: 'unknown type "' + d.type + '" (one of ' +
           Object.keys(REQUESTS).map(function (k) { return '"attentionLab:' + k + '"'; }).join(', ') + ')' });
    return;
  }
  ready.then(function () {
    var r;
    try { r = api[name](REQUESTS[name] ? d[REQUESTS[name]] : undefined); } catch (e) { reply(failed(e)); return; }
    if (r && typeof r.then === 'function') r.then(reply, function (e) { reply(failed(e)); });
    else reply(r === undefined ? null : r);
  }, function (e) { reply(failed(e)); });
}
