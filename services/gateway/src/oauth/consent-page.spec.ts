import { consentPageHeaders, renderConsentPage } from './consent-page';

describe('renderConsentPage', () => {
  const client = { client_id: 'c1', client_name: '<script>x</script>"Evil"', redirect_uris: ['https://app.example/cb'] };

  it('names the application escaped, where it returns to, and what it may do', () => {
    const html = renderConsentPage({
      client,
      scopes: ['convert'],
      redirectUri: 'https://app.example/cb?x=1',
      email: 'a@example.com',
      consentId: 'abc',
      csrfFields: '<input type="hidden" name="_csrf" value="t">',
    });
    expect(html).not.toContain('<script>x</script>');
    expect(html).toContain('&lt;script&gt;x&lt;/script&gt;&quot;Evil&quot;');
    expect(html).toContain('<strong>https://app.example</strong>');
    expect(html).toContain('convert files from public URLs');
    expect(html).toContain('<input type="hidden" name="consent" value="abc">');
    expect(html).toContain('<input type="hidden" name="_csrf" value="t">');
  });

  it('falls back to a plain description for an unnamed application', () => {
    const html = renderConsentPage({
      client: { client_id: 'c2', redirect_uris: [] },
      scopes: ['convert'],
      redirectUri: 'http://127.0.0.1:1/cb',
      email: 'a@example.com',
      consentId: 'x',
      csrfFields: '',
    });
    expect(html).toContain('An unnamed application');
  });
});

describe('consentPageHeaders', () => {
  it('forbids framing and lets the form reach only this site and the application', () => {
    const headers = consentPageHeaders('https://app.example/cb');
    expect(headers['X-Frame-Options']).toBe('DENY');
    expect(headers['Content-Security-Policy']).toContain("frame-ancestors 'none'");
    expect(headers['Content-Security-Policy']).toContain("form-action 'self' https://app.example;");
    expect(consentPageHeaders('com.example.app:/cb')['Content-Security-Policy']).toContain("form-action 'self' com.example.app:;");
  });
});
