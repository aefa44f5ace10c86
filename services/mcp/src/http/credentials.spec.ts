import { bearerChallenge } from './credentials';

describe('bearerChallenge', () => {
  it('names the metadata, and the error without quotes that would break the header', () => {
    expect(bearerChallenge('https://m/mcp/.well-known/oauth-protected-resource')).toBe('Bearer resource_metadata="https://m/mcp/.well-known/oauth-protected-resource"');
    expect(bearerChallenge('u', { code: 'invalid_token', description: 'the "token" is bad' })).toBe(
      'Bearer resource_metadata="u", error="invalid_token", error_description="the token is bad"',
    );
  });
});
