/**
 * The setup page (`GET /`), its script (`/setup.js`) and style (`/setup.css`):
 * one small form that works on a phone, no framework, no external asset, no
 * inline script or style (the answers carry `Content-Security-Policy:
 * default-src 'self'`). The script fills the form from `GET /setup` and posts
 * the settings with the setup code as the bearer token, then shows the board's
 * answer. ASCII only: the SDK's HTTP server counts a string body in characters.
 */

export const PageHtml = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>Board setup</title><link rel="stylesheet" href="/setup.css"><script src="/setup.js" defer></script></head>
<body><h1>Board setup</h1>
<p>Type the setup code that the board printed on its console (<code>setup code: ...</code>).</p>
<form id="f">
<label>Setup code<input name="code" autocomplete="off" required></label>
<label>Service URL<input name="serviceUrl" type="url" placeholder="https://dds.example.com" required></label>
<label>Device key<input name="deviceKey" required></label>
<label>Device token<input name="token" type="password" autocomplete="off" required></label>
<label>Wi-Fi network<input name="ssid"></label>
<label>Wi-Fi password<input name="password" type="password" autocomplete="off"></label>
<label>CA certificate (PEM, optional)<textarea name="caCert" rows="3"></textarea></label>
<button>Try and save</button></form>
<p id="out" role="status"></p></body></html>
`;

export const PageCss = `body{font:16px/1.4 system-ui,sans-serif;margin:0 auto;padding:1em;max-width:28em}
label{display:block;margin:.6em 0}input,textarea,button{display:block;width:100%;box-sizing:border-box;
font:inherit;padding:.5em;margin-top:.2em}button{margin-top:1em}#out{white-space:pre-wrap}.bad{color:#b00020}
`;

export const PageJs = `'use strict';
const f = document.getElementById('f'), out = document.getElementById('out');
fetch('/setup').then((r) => r.json()).then((s) => {
  for (const k of ['serviceUrl', 'deviceKey', 'ssid']) if (s[k]) f.elements[k].value = s[k];
  if (s.token) f.elements.token.placeholder = 'set: type it again to change settings';
}).catch(() => {});
f.addEventListener('submit', (e) => {
  e.preventDefault();
  const body = {};
  for (const k of ['serviceUrl', 'deviceKey', 'token', 'ssid', 'password', 'caCert'])
    if (f.elements[k].value) body[k] = f.elements[k].value;
  out.className = '';
  out.textContent = 'Trying the settings...';
  fetch('/setup', { method: 'POST', headers: { Authorization: 'Bearer ' + f.elements.code.value.trim(),
    'Content-Type': 'application/json' }, body: JSON.stringify(body) })
    .then((r) => r.json().then((a) => {
      out.className = r.ok ? '' : 'bad';
      out.textContent = r.ok ? 'Saved: the board starts the agent now.' : r.status + ': ' + (a.detail || a.error) +
        (a.reason ? ' (' + a.reason + ')' : '') + (a.retryAfterS ? ' retry in ' + a.retryAfterS + ' s' : '');
    }))
    .catch((x) => { out.className = 'bad'; out.textContent = 'No answer: ' + x; });
});
`;
