import { DEV_ACCOUNT_ID, DevApiKeyAuthenticator } from './dev-api-key.authenticator';

const KEY = 'tm_dev_0123456789abcdef0123456789abcdef';

describe('DevApiKeyAuthenticator', () => {
  it.each([
    ['the configured key', KEY, KEY, { accountId: DEV_ACCOUNT_ID }],
    ['another key', KEY, `${KEY}x`, null],
    ['a prefix of the key', KEY, KEY.slice(0, 10), null],
    ['an empty key', KEY, '', null],
    ['any key when none is configured', undefined, KEY, null],
  ])('%s', async (_name, configured, given, expected) => {
    expect(await new DevApiKeyAuthenticator(configured).authenticate(given)).toEqual(expected);
  });
});
