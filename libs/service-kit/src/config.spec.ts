import { z } from 'zod';
import { ConfigError, baseConfig, envVar, loadConfig, secretKey } from './config';

describe('loadConfig', () => {
  const shape = {
    ...baseConfig(8080),
    signingKey: envVar('TRANSMUTE_TEST_KEY', secretKey(), 'Signing key.', { secret: true }),
    retries: envVar('TRANSMUTE_TEST_RETRIES', z.coerce.number().int().default(3), 'Retries.'),
  };

  it('applies defaults and parses values', () => {
    const config = loadConfig(shape, { TRANSMUTE_TEST_KEY: 'k'.repeat(32), TRANSMUTE_HTTP_PORT: '9000' });
    expect(config.httpPort).toBe(9000);
    expect(config.natsUrl).toBe('nats://127.0.0.1:4222');
    expect(config.retries).toBe(3);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('names every bad variable at once and never prints a secret', () => {
    let error: unknown;
    try {
      loadConfig(shape, { TRANSMUTE_TEST_KEY: 'short-secret', TRANSMUTE_HTTP_PORT: '99999', TRANSMUTE_LOG_LEVEL: 'loud' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toContain('TRANSMUTE_HTTP_PORT');
    expect(problems.join('\n')).toContain('(got "99999")');
    expect(problems.join('\n')).toContain('TRANSMUTE_LOG_LEVEL');
    expect(problems.join('\n')).not.toContain('short-secret');
  });

  it('treats an empty variable as unset', () => {
    const config = loadConfig(shape, { TRANSMUTE_TEST_KEY: 'k'.repeat(32), TRANSMUTE_HTTP_HOST: '' });
    expect(config.httpHost).toBe('127.0.0.1');
  });
});
