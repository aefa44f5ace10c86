import { DownloadTokens } from './download-tokens';

describe('DownloadTokens', () => {
  const tokens = new DownloadTokens('d'.repeat(32));
  const grant = { key: 'jobs/a/out.jpg', filename: 'out.jpg', accountId: 'acc', expiresAtUnix: BigInt(2_000_000_000) };

  it('round-trips a grant', () => {
    const verified = tokens.verify(tokens.mint(grant), 1_000);
    expect(verified).toMatchObject({ key: 'jobs/a/out.jpg', filename: 'out.jpg', accountId: 'acc' });
  });

  it.each([
    ['another key', (token: string) => new DownloadTokens('e'.repeat(32)).verify(token, 1_000)],
    ['a tampered payload', (token: string) => tokens.verify(`A${token.slice(1)}`, 1_000)],
    ['garbage', () => tokens.verify('not-a-token', 1_000)],
    ['an expired grant', (token: string) => tokens.verify(token, 2_000_000_001)],
  ])('rejects %s', (_name, check) => {
    expect(check(tokens.mint(grant))).toBeNull();
  });
});
