import { apiKeyMatches, apiKeyPrefix, generateApiKey, hashApiKey } from './api-key-secret';

describe('API key secrets', () => {
  it('generates keys whose prefix is recoverable and whose hash matches only the key', () => {
    const first = generateApiKey();
    const second = generateApiKey();
    expect(first.key).toMatch(/^tm_[0-9a-f]{12}_[0-9a-f]{48}$/);
    expect(apiKeyPrefix(first.key)).toBe(first.prefix);
    expect(first.key).not.toBe(second.key);
    expect(first.hash).toBe(hashApiKey(first.key));
    expect(first.hash).not.toContain(first.key.slice(16));
    expect(apiKeyMatches(first.key, first.hash)).toBe(true);
    expect(apiKeyMatches(second.key, first.hash)).toBe(false);
  });

  it.each([
    ['a generated key', 'tm_0123456789ab_0123456789abcdef0123', '0123456789ab'],
    ['the development key', 'tm_dev_0123456789abcdef0123456789abcdef', 'dev'],
    ['no tm_ marker', 'xx_0123456789ab_0123456789abcdef0123', null],
    ['a short secret', 'tm_0123456789ab_abc', null],
    ['punctuation in the secret', 'tm_0123456789ab_0123456789abcdef012!', null],
    ['an empty string', '', null],
  ])('prefix of %s', (_name, key, prefix) => {
    expect(apiKeyPrefix(key)).toBe(prefix);
  });

  it('rejects a stored hash of another length without throwing', () => {
    expect(apiKeyMatches('tm_dev_0123456789abcdef0123456789abcdef', 'abcd')).toBe(false);
  });
});
