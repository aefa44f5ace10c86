import { CookiePolicy, cookiesMustBeSecure } from './cookie-policy';
import { CsrfTokens } from './csrf';

const TOKEN = 'A'.repeat(43);

function tokens(publicUrl = 'http://127.0.0.1:8080'): CsrfTokens {
  return new CsrfTokens(new CookiePolicy({ publicUrl }));
}

const request = (headers: Record<string, string>, method = 'POST', body?: unknown) => ({ headers, method, body });

describe('cookie policy', () => {
  it.each([
    ['http://127.0.0.1:8080', false],
    ['http://localhost:3000', false],
    ['https://convert.example.com', true],
    ['http://convert.example.com', true],
  ])('%s: Secure %s', (url, secure) => {
    expect(cookiesMustBeSecure(url)).toBe(secure);
  });

  it('names Secure cookies with the __Host- prefix', () => {
    expect(new CookiePolicy({ publicUrl: 'https://convert.example.com' }).sessionCookie).toBe('__Host-tm_session');
    expect(new CookiePolicy({ publicUrl: 'http://127.0.0.1:8080' }).csrfCookie).toBe('tm_csrf');
  });
});

describe('CsrfTokens', () => {
  const own = { origin: 'http://127.0.0.1:8080', cookie: `tm_csrf=${TOKEN}` };

  it('lets a same-origin change with its token through', () => {
    expect(() => tokens().verify(request({ ...own, 'x-csrf-token': TOKEN }))).not.toThrow();
    expect(() => tokens().verify(request(own, 'POST', { _csrf: TOKEN }))).not.toThrow();
  });

  it('refuses another origin, a missing origin, a wrong or missing token', () => {
    expect(() => tokens().verify(request({ ...own, origin: 'http://127.0.0.1:9999', 'x-csrf-token': TOKEN }))).toThrow(/cross-site/);
    expect(() => tokens().verify(request({ cookie: own.cookie, 'x-csrf-token': TOKEN }))).toThrow(/cross-site/);
    expect(() => tokens().verify(request({ ...own, 'x-csrf-token': 'B'.repeat(43) }))).toThrow(/CSRF token/);
    expect(() => tokens().verify(request(own))).toThrow(/CSRF token/);
  });

  it('takes the Referer when Origin is absent, and the addressed host as our own', () => {
    expect(() => tokens().verify(request({ cookie: own.cookie, referer: 'http://127.0.0.1:8080/dashboard', 'x-csrf-token': TOKEN }))).not.toThrow();
    expect(() => tokens().verify(request({ ...own, origin: 'http://localhost:8080', host: 'localhost:8080', 'x-csrf-token': TOKEN }))).not.toThrow();
  });

  it('does not check safe methods', () => {
    expect(() => tokens().verify(request({}, 'GET'))).not.toThrow();
  });
});
