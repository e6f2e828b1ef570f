// Before the app's JavaScript has loaded: paints the static shell of this
// address (the <template>s of index.html, rendered from the app's own
// components at build time: web/prerender-shells.ts). A stored token means the
// session must load first: the splash. Signed out, `/` is the landing page and
// `/l/{slug}` the join page while its plan loads; other pages get no shell.
// The shell is inert (a tap or typing does nothing until the app is there),
// and React's first render replaces it. An external file: the
// Content-Security-Policy allows no inline script.
(function () {
  var root = document.getElementById('root');
  var name = null;
  try {
    if (localStorage.getItem('authToken')) name = 'splash';
  } catch (e) {
    // Storage blocked: the app will treat the visitor as signed out.
  }
  if (!name) {
    var path = location.pathname;
    if (path === '/') name = 'landing';
    else if (/^\/l\/[^/]+\/?$/.test(path)) name = 'join';
  }
  var template = name && document.getElementById('shell-' + name);
  if (!root || !template || root.firstChild) return;
  var shell = document.createElement('div');
  shell.id = 'shell';
  shell.setAttribute('inert', '');
  shell.appendChild(template.content.cloneNode(true));
  root.appendChild(shell);
})();
