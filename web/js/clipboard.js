// The clipboard, which SDL does not have in the browser: pasted text goes into the lab
// (connectPaste); copies go out through navigator.clipboard, or a box to copy by hand (copyText).

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
