// Before the app's JavaScript has loaded: paints the static shell of this
// address (the <template>s of index.html, rendered from the app's own
// components at build time: web/prerender-shells.ts). A stored token means the
// session must load first: the splash. Signed out, `/` is the landing page and
// `/l/{slug}` the join page while its plan loads; other pages get no shell.
// The shell is inert (a tap or typing does nothing until the app is there),
// and React's first render replaces it. An external file: the
// Content-Security-Policy allows no inline script.
//
// On the join page it also asks for the plan at once, as a preload the app's
// own request then takes over (same URL, same credentials, no extra header:
// only without a token or a stored guest session), instead of after the
// app's code has loaded.
(function () {
  var root = document.getElementById('root');
  var signedIn = false;
  var guest = false;
  try {
    signedIn = !!localStorage.getItem('authToken');
    guest = !!localStorage.getItem('guestSession');
  } catch {
    // Storage blocked: the app will treat the visitor as signed out.
  }
  var path = location.pathname;
  var join = /^\/l\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  var name = signedIn ? 'splash' : path === '/' ? 'landing' : join ? 'join' : null;
  var template = name && document.getElementById('shell-' + name);
  if (!root || !template || root.firstChild) return;
  var shell = document.createElement('div');
  shell.id = 'shell';
  shell.setAttribute('inert', '');
  shell.appendChild(template.content.cloneNode(true));
  root.appendChild(shell);
  if (name === 'join' && !guest) {
    var preload = document.createElement('link');
    preload.rel = 'preload';
    preload.as = 'fetch';
    preload.crossOrigin = 'use-credentials';
    preload.href = template.getAttribute('data-api') + '/api/plans/slug/' + join[1];
    document.head.appendChild(preload);
  }
})();
