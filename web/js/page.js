// The page's own HTML around the canvas: its language, its messages (src/text/page.json), the
// message panel (no WebAssembly, no WebGL2, a failure), the dismissible notice, the canvas's focus.


// Language of the page's own (HTML) messages.
function browserLang() {
  var l = (navigator.languages && navigator.languages[0]) || navigator.language || '';
  return /^ru\b/i.test(l) ? 'ru' : 'en';
}
var pageLang = browserLang();
document.documentElement.lang = pageLang;

// The page's messages in both languages: src/text/page.json, put in by the build as PAGE_TEXT
// (cmake/join_page_script.cmake), the one home of the lab's translated text.
var TEXT = PAGE_TEXT;
function t(key) { return TEXT[pageLang][key]; }
function otherLang() { return pageLang === 'ru' ? 'en' : 'ru'; }

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

function focusCanvas() {
  try { canvas.focus({ preventScroll: true }); } catch (e) { canvas.focus(); }
}
