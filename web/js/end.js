// The close of the page script's one scope (begin.js opens it): every part has defined its
// functions and variables, so loading starts (loader.js: start).

  start();
})();
