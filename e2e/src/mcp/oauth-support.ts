import { createHash, randomBytes } from 'node:crypto';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { WebClient } from '../website/web-client';

/** Where the test "application" asks to be sent back; nothing listens there: the browser reads the redirect instead. */
export const REDIRECT_URI = 'http://127.0.0.1:47891/oauth/callback';

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/**
 * The SDK client's OAuth side for a headless assistant: keeps what the SDK
 * asks it to keep, and instead of opening a browser records the
 * authorization URL for the test's browser to visit.
 */
export class HeadlessOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  private client: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';

  constructor(readonly clientName: string) {}

  get redirectUrl(): string {
    return REDIRECT_URI;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.clientName,
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

export interface Redirect {
  status: number;
  location: URL;
}

/**
 * A person's browser on the website: signs in with the website's own API
 * (cookies, CSRF) and answers the real consent page by posting its form.
 */
export class ConsentBrowser {
  readonly web: WebClient;

  constructor(readonly baseUrl: string) {
    this.web = new WebClient(baseUrl);
  }

  /** GET of an authorization URL, redirects not followed. */
  async open(url: URL | string): Promise<{ status: number; location: string | null; html: string }> {
    const response = await fetch(url, { headers: this.cookieHeaders(), redirect: 'manual', signal: AbortSignal.timeout(30_000) });
    return { status: response.status, location: response.headers.get('location'), html: await response.text() };
  }

  /**
   * Opens the authorization URL: if sent to sign in, signs in with `next` and
   * follows it to the consent page; answers it and returns where the
   * application is sent back to.
   */
  async authorize(url: URL, account: { email: string; password: string }, decision: 'allow' | 'deny' = 'allow'): Promise<{ consentHtml: string; redirect: Redirect }> {
    let page = await this.open(url);
    if (page.status === 302 && page.location?.startsWith('/signin?next=')) {
      const next = new URL(page.location, this.baseUrl).searchParams.get('next') ?? '';
      if (!this.web.csrfToken) await this.web.session();
      const signedIn = await this.web.call('POST', '/web/api/signin', { email: account.email, password: account.password, next });
      if (signedIn.status !== 200) throw new Error(`sign-in answered ${signedIn.status}: ${JSON.stringify(signedIn.body)}`);
      page = await this.open(new URL(signedIn.body.next as string, this.baseUrl));
    }
    if (page.status !== 200) throw new Error(`the authorization URL answered ${page.status} (${page.location ?? page.html.slice(0, 300)})`);
    return { consentHtml: page.html, redirect: await this.answer(page.html, decision) };
  }

  /** Posts the consent form as a browser would: its hidden fields, the button pressed, cookies and Origin. */
  async answer(consentHtml: string, decision: 'allow' | 'deny', overrides: Record<string, string> = {}): Promise<Redirect> {
    const fields = Object.fromEntries([...consentHtml.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((match) => [match[1] as string, match[2] as string]));
    const action = /<form method="post" action="([^"]+)">/.exec(consentHtml)?.[1];
    if (!action) throw new Error('the consent page has no form');
    const response = await fetch(new URL(action, this.baseUrl), {
      method: 'POST',
      headers: { ...this.cookieHeaders(), 'Content-Type': 'application/x-www-form-urlencoded', Origin: this.baseUrl },
      body: new URLSearchParams({ ...fields, decision, ...overrides }).toString(),
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
    });
    const location = response.headers.get('location');
    if (!location) throw new Error(`the consent answer was ${response.status} without a redirect: ${await response.text()}`);
    return { status: response.status, location: new URL(location) };
  }

  private cookieHeaders(): Record<string, string> {
    const cookie = this.web.cookieHeader;
    return cookie ? { Cookie: cookie } : {};
  }
}

/** A form POST to a token-type endpoint; the JSON answer and status. */
export async function postForm(url: string, form: Record<string, string>): Promise<{ status: number; body: Record<string, any> }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: new URLSearchParams(form).toString(),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}
