import { ModelError } from '../errors.js';
import type { PageScript, PageSpec } from '../model/web-model.js';
import { escapeHtml } from './escape-html.js';
import { renderHead } from './render-head.js';
import { renderLinks } from './render-links.js';

/**
 * Server-rendered pages of the render profile. Without a script role: a complete page with an
 * analytics snippet. enhanced: the same plus a list the script fills; redirect: a short page whose
 * script moves on; inert: a small page in an app root under a heavy inline script that changes nothing.
 */
export function renderScriptedPage(page: PageSpec, main: string): string {
  const script = page.script;
  if (script?.role === 'redirect') return redirectPage(page, script);
  if (script?.role === 'inert') return inertPage(page, main);
  return `<!DOCTYPE html>
<html lang="en">
<head>
${renderHead(page, 'Harbor Daily')}
<link rel="stylesheet" href="/static/site.css">
<script src="/static/analytics.js" async></script>
</head>
<body>
<nav>
${renderLinks(page.links, 'nav')}</nav>
${main}
${script?.role === 'enhanced' ? enhancement(script) : ''}<footer>
${renderLinks(page.links, 'footer')}<p>Harbor Daily, printed since 1871.</p>
</footer>
</body>
</html>
`;
}

function enhancement(script: PageScript): string {
  const config = JSON.stringify({ source: script.data, trigger: script.trigger, steps: script.steps }).replace(
    /</g,
    '\\u003c',
  );
  const button = script.trigger === 'click' ? '<button id="load-more" type="button">Load more</button>\n' : '';
  return `<section>
<h2>More</h2>
<ul id="more"></ul>
${button}<script type="application/json" id="enhance">${config}</script>
<script src="/static/enhance.js" defer></script>
</section>
`;
}

function redirectPage(page: PageSpec, script: PageScript): string {
  if (!script.redirect) throw new ModelError(`redirect script without a target on "${page.title}"`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(page.title)}</title>
<script>location.replace(${JSON.stringify(script.redirect.href).replace(/</g, '\\u003c')});</script>
</head>
<body>
<p>Redirecting&hellip;</p>
<noscript>Enable JavaScript to continue.</noscript>
</body>
</html>
`;
}

// About 6 KB of configuration and code that only computes: what tag managers and app bundles inline.
function inertPage(page: PageSpec, main: string): string {
  const settings = Array.from({ length: 160 }, (_, i) => `"flag_${i}":${(i * 7919) % 1000}`).join(',');
  return `<!DOCTYPE html>
<html lang="en">
<head>
${renderHead(page, 'Quiet Labs')}
<script>window.__SETTINGS__={${settings}};
(function(){var total=0,keys=Object.keys(window.__SETTINGS__);for(var i=0;i<keys.length;i++){total+=window.__SETTINGS__[keys[i]];}window.__TOTAL__=total;})();</script>
</head>
<body>
<div id="root" data-reactroot="">
${main}
</div>
</body>
</html>
`;
}
