// The opening of the page script's one scope: the whole script in outline, the order of its
// parts (web/js/), and why it is ES5. end.js closes the scope.

/*
 * Attention Lab page: loader, window.attentionLab API, URL state, postMessage bridge.
 *
 * The build joins the files of web/js/ in this order into the one lab.js the page loads
 * (cmake/Emscripten.cmake: ATTNLAB_PAGE_SCRIPT; minified with terser outside Debug):
 *   begin.js         this opening
 *   page.js          the page's own HTML: language, messages, panels, the canvas's focus
 *   loader.js        checks, download with progress, boot, ready; start()
 *   api.js           window.attentionLab and its reference, the C functions it calls
 *   url_state.js     the state in the address (location.hash)
 *   guest.js         a good guest of a course page: wheel, touch, height, postMessage
 *   ime.js           the text input for phones and input methods
 *   clipboard.js     paste into the lab, copies out of it
 *   export.js        figures and numbers as files
 *   a11y.js          the weights as a table for screen readers, reduced motion
 *   model_switch.js  the trained model's files, the switch to the build with its code
 *   end.js           start(), and the scope closed
 * The parts share one scope (a name defined in one is seen in all); each only defines
 * functions and variables with their first values, and nothing starts before end.js.
 *
 * Written in ES5 syntax on purpose: an old browser must still parse this file and show the
 * "not supported" message instead of a blank page.
 */

(function () {
  'use strict';
