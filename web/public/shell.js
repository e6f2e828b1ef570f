// Before the app's JavaScript has loaded: paints the static shell of this
// address (the <template>s of index.html, rendered from the app's own
// components at build time: web/prerender-shells.ts). A stored token means the
// session must load first: the splash. Signed out, `/` is the landing page and
// `/l/{slug}` the join page while its plan loads; other pages get no shell.
// The shell is inert (a tap or typing does nothing until the app is there),
// and React's first render replaces it. An external file: the
// Content-Security-Policy allows no inline script.
//
// On the join page it also asks for the plan at once, instead of after the
// app's code has loaded, and hands the answer to the app
// (`window.hangplanEarlyAnswer`, taken by web/src/lib/early-answer.ts): one
// request for both. Only without a token or a stored guest session, whose
// headers the app's request would carry. When the plan comes before the app,
// the shell becomes the join page with the plan's texts in it (the shell of
// the plan's phase, its `[[plan.{field}]]` texts replaced), as React will
// render it.
//
// First of all, on every page, light or dark: the choice stored on this
// device ('light', 'dark'; 'auto' or none follows the phone), set on <html> as
// Mantine will set it (web/src/app/color-scheme.ts), and when the choice
// overrides the phone, both theme-color metas take its scheme's colour.
(function () {
  var root = document.getElementById('root');
  var signedIn = false;
  var guest = false;
  var scheme = null;
  try {
    signedIn = !!localStorage.getItem('authToken');
    guest = !!localStorage.getItem('guestSession');
    scheme = localStorage.getItem('colorScheme');
  } catch {
    // Storage blocked: the app will treat the visitor as signed out.
  }
  var chosen = scheme === 'light' || scheme === 'dark';
  var dark = chosen ? scheme === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
  document.documentElement.setAttribute('data-mantine-color-scheme', dark ? 'dark' : 'light');
  var chosenMeta = chosen && document.querySelector('meta[name="theme-color"][media*="' + scheme + '"]');
  if (chosenMeta) {
    var metas = document.querySelectorAll('meta[name="theme-color"]');
    for (var m = 0; m < metas.length; m++) metas[m].content = chosenMeta.content;
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
  if (name !== 'join' || guest) return;

  var url = template.getAttribute('data-api') + '/api/plans/slug/' + join[1];
  var answer = fetch(url, { credentials: 'include' }).then(function (res) {
    if (res.ok) res.clone().json().then(showPlan, function () {});
    return res;
  });
  // A failed request is the app's to report (it takes this promise over).
  answer.catch(function () {});
  window.hangplanEarlyAnswer = { url: url, response: answer };

  function showPlan(plan) {
    if (!plan || typeof plan.title !== 'string' || shell.parentNode !== root) return;
    var shells = document.querySelectorAll('template[data-plan-statuses]');
    for (var i = 0; i < shells.length; i++) {
      if (shells[i].getAttribute('data-plan-statuses').split(' ').indexOf(plan.status) < 0) continue;
      var page = shells[i].content.cloneNode(true);
      fillSlots(page, plan);
      var slug = '/l/' + shells[i].getAttribute('data-plan-slug');
      var links = page.querySelectorAll('[href]');
      for (var j = 0; j < links.length; j++) {
        links[j].setAttribute('href', links[j].getAttribute('href').split(slug).join('/l/' + plan.slug));
      }
      shell.replaceChildren(page);
      return;
    }
  }

  function fillSlots(page, plan) {
    var walker = document.createTreeWalker(page, NodeFilter.SHOW_TEXT);
    var slots = [];
    while (walker.nextNode()) {
      var slot = /^\[\[plan\.(\w+)\]\]$/.exec(walker.currentNode.data);
      if (slot) slots.push([walker.currentNode, slot[1]]);
    }
    slots.forEach(function (entry) {
      var value = plan[entry[1]];
      var element = entry[0].parentNode;
      if (typeof value === 'string' && value) entry[0].data = value;
      else element.parentNode.removeChild(element);
    });
  }
})();
