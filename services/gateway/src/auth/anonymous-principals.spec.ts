import { Plans, limitsConfig } from '../limits';
import { loadConfig } from '@transmute/service-kit';
import { AnonymousPrincipals } from './anonymous-principals';
import { anonymousAccountId } from './principal';

describe('anonymous principals', () => {
  const principals = new AnonymousPrincipals(new Plans(loadConfig(limitsConfig(), {})));

  it('gives each client IP its own stable principal on the anonymous plan, without the IP in it', () => {
    const first = principals.principalFor('198.51.100.7');
    expect(first).toEqual({
      accountId: anonymousAccountId('198.51.100.7'),
      keyId: anonymousAccountId('198.51.100.7'),
      plan: 'anonymous',
      convertAllowance: 1,
      rateLimitPerMinute: 20,
      anonymous: true,
    });
    expect(first.accountId).toMatch(/^anon-[0-9a-f]{32}$/);
    expect(first.accountId).not.toContain('198');
    expect(principals.principalFor('198.51.100.7')).toEqual(first);
    expect(principals.principalFor('198.51.100.8').accountId).not.toBe(first.accountId);
  });
});
