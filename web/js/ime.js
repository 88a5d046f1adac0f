// The lab's text input for phones and input methods: an invisible <input> over the active text
// box takes the keyboard, composition and dictation, and hands text and editing keys to the lab.

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
