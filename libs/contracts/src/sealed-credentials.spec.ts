import { CREDENTIAL_FIELDS, credentialKey, openSealed, sealCredentials, splitSealed } from './sealed-credentials';

/** The stored spec with its credentials back in place, as a worker sees it. */
function openCredentials(stored: Record<string, unknown>, key: Buffer): Record<string, unknown> {
  const { spec, sealed } = splitSealed(stored);
  return sealed ? { ...spec, ...openSealed(sealed, key) } : stored;
}

describe('sealed task credentials', () => {
  const key = credentialKey('c'.repeat(32));
  const spec = {
    operation: 'export/s3',
    bucket: 'results',
    accessKeyId: 'AKIAEXAMPLEKEY',
    secretAccessKey: 'very-secret-value',
    sessionToken: 'session-token-value',
    password: 'sftp-password',
    privateKey: '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----',
  };

  it('keeps no credential readable in the stored spec', () => {
    const stored = sealCredentials(spec, key);
    const text = JSON.stringify(stored);
    for (const field of CREDENTIAL_FIELDS) {
      expect(stored).not.toHaveProperty(field);
      expect(text).not.toContain(spec[field]);
    }
    expect(stored).toMatchObject({ operation: 'export/s3', bucket: 'results' });
  });

  it('opens what it sealed, with a fresh IV each time', () => {
    const first = sealCredentials(spec, key);
    expect(first['sealedCredentials']).not.toBe(sealCredentials(spec, key)['sealedCredentials']);
    expect(openCredentials(first, key)).toEqual(spec);
  });

  it('splits into a spec without credentials and an envelope that opens to exactly the credentials', () => {
    const { spec: bare, sealed } = splitSealed(sealCredentials(spec, key));
    expect(bare).toEqual({ operation: 'export/s3', bucket: 'results' });
    const { operation: _operation, bucket: _bucket, ...credentials } = spec;
    expect(openSealed(sealed, key)).toEqual(credentials);
    expect(splitSealed({ operation: 'import/url' }).sealed).toBe('');
  });

  it('leaves specs without credentials alone', () => {
    const plain = { operation: 'import/url', url: 'https://example.com/a.png' };
    expect(sealCredentials(plain, key)).toBe(plain);
    expect(openCredentials(plain, key)).toBe(plain);
  });

  it.each([
    ['another key', (sealed: Record<string, unknown>) => openCredentials(sealed, credentialKey('e'.repeat(32)))],
    ['a tampered seal', (sealed: Record<string, unknown>) => openCredentials({ ...sealed, sealedCredentials: `${String(sealed['sealedCredentials']).slice(0, -2)}AA` }, key)],
  ])('refuses %s', (_name, open) => {
    expect(() => open(sealCredentials(spec, key))).toThrow();
  });
});
