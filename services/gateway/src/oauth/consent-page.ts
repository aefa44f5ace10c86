import type { ClientRecord } from './oauth-records';
import { SCOPE_DESCRIPTIONS } from './oauth-records';

export const CONSENT_DECISION_PATH = '/oauth/authorize/decision';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/**
 * Headers of the consent page: never framed (a framed consent button could be
 * clicked through a decoy), no script, and the form may only post here and
 * then be redirected to the application.
 */
export function consentPageHeaders(redirectUri: string): Record<string, string> {
  const url = new URL(redirectUri);
  const target = url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
  return {
    'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${target}; frame-ancestors 'none'; base-uri 'none'`,
    'X-Frame-Options': 'DENY',
    // Not no-referrer: with it browsers send `Origin: null` on the form's POST, which the CSRF check refuses.
    'Referrer-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  };
}

export interface ConsentView {
  client: ClientRecord;
  scopes: string[];
  redirectUri: string;
  email: string;
  consentId: string;
  /** The CSRF hidden field(s) of the website's helper, already HTML. */
  csrfFields: string;
}

/**
 * The consent screen: names the application (and where it sends the person
 * back, so a look-alike name cannot hide its origin) and what it may do.
 */
export function renderConsentPage(view: ConsentView): string {
  const name = escapeHtml(view.client.client_name ?? 'An unnamed application');
  const origin = escapeHtml(new URL(view.redirectUri).origin);
  const abilities = view.scopes.map((scope) => `<li>${escapeHtml(SCOPE_DESCRIPTIONS[scope] ?? scope)}</li>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Allow ${name} to use Transmute?</title>
<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;line-height:1.5}
.actions{display:flex;gap:1rem;margin-top:1.5rem}button{padding:.6rem 1.2rem;font-size:1rem;cursor:pointer}
.muted{color:#555;font-size:.9rem}</style></head>
<body><main>
<h1>Allow <span id="client-name">${name}</span> to use your Transmute account?</h1>
<p class="muted">Signed in as ${escapeHtml(view.email)}. The application will send you back to <strong>${origin}</strong>.</p>
<p>If you allow it, <strong>${name}</strong> may:</p>
<ul id="scopes">${abilities}</ul>
<p class="muted">It gets access for one hour at a time, renewed for up to 90 days unless you disconnect it under
Connected applications on your dashboard.</p>
<form method="post" action="${CONSENT_DECISION_PATH}">
${view.csrfFields}
<input type="hidden" name="consent" value="${escapeHtml(view.consentId)}">
<div class="actions"><button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button></div>
</form></main></body></html>`;
}
