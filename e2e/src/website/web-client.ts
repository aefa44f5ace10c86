/**
 * A browser-like client of the website's API for tests: keeps cookies (a
 * small jar), sends the CSRF token and the Origin a page of the site would.
 */
export interface WebAnswer {
  status: number;
  headers: Headers;
  body: any;
}

export class WebClient {
  private readonly cookies = new Map<string, string>();
  csrfToken = '';

  constructor(
    readonly baseUrl: string,
    private readonly origin = baseUrl,
  ) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** Fetches the session (and the CSRF cookie and token). */
  async session(): Promise<WebAnswer> {
    const answer = await this.call('GET', '/web/api/session');
    this.csrfToken = answer.body.csrf_token;
    return answer;
  }

  async call(method: string, path: string, json?: unknown, options: { csrf?: boolean; origin?: string | null; headers?: Record<string, string> } = {}): Promise<WebAnswer> {
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    if (this.cookies.size > 0) headers['Cookie'] = this.cookieHeader;
    if (options.csrf !== false && this.csrfToken) headers['X-CSRF-Token'] = this.csrfToken;
    const origin = options.origin === undefined ? this.origin : options.origin;
    if (origin !== null && method !== 'GET') headers['Origin'] = origin;
    if (json !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      redirect: 'manual',
      ...(json !== undefined && { body: JSON.stringify(json) }),
      signal: AbortSignal.timeout(30_000),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...value] = (pair ?? '').split('=');
      if (!name) continue;
      const deleted = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (deleted) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value.join('='));
    }
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: keep the text.
    }
    if (body && typeof body === 'object' && typeof (body as { csrf_token?: unknown }).csrf_token === 'string') {
      this.csrfToken = (body as { csrf_token: string }).csrf_token;
    }
    return { status: response.status, headers: response.headers, body };
  }

  /** Signs up and in; returns the sign-in answer. */
  async signUpAndIn(email: string, password: string): Promise<WebAnswer> {
    if (!this.csrfToken) await this.session();
    const signUp = await this.call('POST', '/web/api/signup', { email, password });
    if (signUp.status !== 201) throw new Error(`sign-up answered ${signUp.status}: ${JSON.stringify(signUp.body)}`);
    const signIn = await this.call('POST', '/web/api/signin', { email, password });
    if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status}: ${JSON.stringify(signIn.body)}`);
    return signIn;
  }
}

export const uniqueEmail = (tag: string): string => `${tag}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6)}@example.com`;
export const GOOD_PASSWORD = 'correct horse battery staple';
