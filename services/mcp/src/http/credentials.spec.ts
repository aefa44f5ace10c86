import { bearerChallenge, credentialOf } from './credentials';

describe('credentialOf', () => {
  it.each([
    ['a bearer token', { authorization: 'Bearer tmat_x' }, 'tmat_x'],
    ['X-API-Key', { 'x-api-key': 'tm_k' }, 'tm_k'],
    ['another scheme falls back to X-API-Key', { authorization: 'Basic abc', 'x-api-key': 'k2' }, 'k2'],
    ['nothing', {}, null],
  ])('%s', (_name, headers, expected) => {
    expect(credentialOf({ headers })).toBe(expected);
  });
});

describe('bearerChallenge', () => {
  it('names the metadata, and the error without quotes that would break the header', () => {
    expect(bearerChallenge('https://m/mcp/.well-known/oauth-protected-resource')).toBe('Bearer resource_metadata="https://m/mcp/.well-known/oauth-protected-resource"');
    expect(bearerChallenge('u', { code: 'invalid_token', description: 'the "token" is bad' })).toBe(
      'Bearer resource_metadata="u", error="invalid_token", error_description="the token is bad"',
    );
  });
});
