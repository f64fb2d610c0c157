import { staticFile } from './static-file.js';
import type { Resource } from '../model/web-model.js';

// The render profile's JavaScript, written as a 2015-era site would (no modules, no build step), so
// any browser engine runs it. Everything a script shows comes from the model through /api JSON.

/** The app shell's script: builds the page from /api/content, follows a redirect, loads teasers, tries off-machine loads. */
const APP_SCRIPT = `(function () {
  var root = document.getElementById('app');
  function load(item) {
    if (item.as === 'script') { var s = document.createElement('script'); s.src = item.url; document.head.appendChild(s); }
    else if (item.as === 'img') { var i = new Image(); i.src = item.url; document.body.appendChild(i); }
    else { fetch(item.url).catch(function () {}); }
  }
  fetch('/api/content?p=' + encodeURIComponent(location.pathname))
    .then(function (r) { return r.json(); })
    .then(function (data) {
      if (data.redirect) { location.replace(data.redirect); return; }
      document.title = data.title;
      var main = document.createElement('main');
      var h1 = document.createElement('h1');
      h1.textContent = data.title;
      main.appendChild(h1);
      data.paragraphs.forEach(function (text) { var p = document.createElement('p'); p.textContent = text; main.appendChild(p); });
      var list = document.createElement('ul');
      data.links.forEach(function (link) {
        var a = document.createElement('a'); a.href = link.href; a.textContent = link.text;
        var li = document.createElement('li'); li.appendChild(a); list.appendChild(li);
      });
      main.appendChild(list);
      root.appendChild(main);
      data.fetches.forEach(function (url) {
        fetch(url).then(function (r) { return r.text(); }).then(function (html) {
          var aside = document.createElement('aside'); aside.textContent = 'Teaser loaded.'; root.appendChild(aside);
        }).catch(function () {});
      });
      data.offMachine.forEach(load);
    });
})();
`;

/** Adds links to a complete page from /api/links, on load, on scrolling to the end, or per click on "load more". */
const ENHANCE_SCRIPT = `(function () {
  var config = JSON.parse(document.getElementById('enhance').textContent);
  var list = document.getElementById('more');
  var button = document.getElementById('load-more');
  var step = 0, busy = false;
  function next() {
    if (busy || step >= config.steps) return Promise.resolve();
    busy = true;
    return fetch(config.source + '&step=' + step).then(function (r) { return r.json(); }).then(function (data) {
      data.links.forEach(function (link) {
        var a = document.createElement('a'); a.href = link.href; a.textContent = link.text;
        var li = document.createElement('li'); li.className = 'item'; li.appendChild(a); list.appendChild(li);
      });
      step++;
      busy = false;
      if (step >= config.steps && button) button.remove();
    });
  }
  if (config.trigger === 'load') (function loop() { if (step < config.steps) next().then(loop); })();
  else if (config.trigger === 'scroll') window.addEventListener('scroll', function () {
    if (window.innerHeight + window.scrollY >= document.body.scrollHeight - 200) next();
  });
  else if (button) button.addEventListener('click', next);
})();
`;

/** What analytics snippets do to a page: nothing a crawler can see. */
const ANALYTICS_SCRIPT = `(function () { window.__visits = (window.__visits || 0) + 1; })();\n`;

// Tall list items make an infinite-scroll list longer than the viewport, as real feeds are.
const STYLES = `body { font-family: sans-serif; margin: 2em; }\nul.links li, .item { min-height: 240px; }\n`;

/** Static files every render-profile host serves under /static/. */
export function renderStaticFiles(): [string, Resource][] {
  const js = 'text/javascript; charset=utf-8';
  return [
    ['/static/app.js', staticFile(js, APP_SCRIPT)],
    ['/static/enhance.js', staticFile(js, ENHANCE_SCRIPT)],
    ['/static/analytics.js', staticFile(js, ANALYTICS_SCRIPT)],
    ['/static/site.css', staticFile('text/css; charset=utf-8', STYLES)],
  ];
}

/** A JSON answer whose value the model fixes. */
export function jsonFile(value: () => unknown): Resource {
  return {
    kind: 'file',
    contentType: 'application/json; charset=utf-8',
    body: () => Buffer.from(JSON.stringify(value()), 'utf8'),
  };
}
