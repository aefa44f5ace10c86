import { loadConfig } from '@transmute/service-kit';
import { clientIpConfig } from '../http/client-ip.config';
import { limitsConfig } from './limits.config';
import { PlanCatalog, formatGb } from './plans';
import { windowOf } from './rate-limiter';

describe('plans', () => {
  it('replaces a shipped plan and adds new ones from TRANSMUTE_PLANS', () => {
    const config = loadConfig(limitsConfig(), {
      TRANSMUTE_PLANS: JSON.stringify({
        free: { monthlyGb: 2, additionalGb: 0, dailyConversions: 9, convertAllowance: 3, rateLimitPerMinute: 30 },
        tiny: { monthlyGb: 0.00001, additionalGb: 0, dailyConversions: 1, convertAllowance: 1, rateLimitPerMinute: 2 },
      }),
    });
    const plans = new PlanCatalog(config.plans);
    expect(plans.get('free')).toMatchObject({ monthlyBytes: 2e9, dailyConversions: 9, rateLimitPerMinute: 30 });
    expect(plans.get('tiny')).toMatchObject({ monthlyBytes: 10_000, convertAllowance: 1 });
    expect(plans.get('pro')).toMatchObject({ convertAllowance: 100, rateLimitPerMinute: 60 });
  });

  it.each([
    ['not JSON', '{'],
    ['a missing figure', '{"x":{"monthlyGb":1}}'],
    ['more than 100 converts per job', '{"x":{"monthlyGb":1,"additionalGb":0,"dailyConversions":1,"convertAllowance":101,"rateLimitPerMinute":1}}'],
    ['an upper-case plan name', '{"X":{"monthlyGb":1,"additionalGb":0,"dailyConversions":1,"convertAllowance":1,"rateLimitPerMinute":1}}'],
  ])('refuses TRANSMUTE_PLANS with %s', (_name, text) => {
    expect(() => loadConfig(limitsConfig(), { TRANSMUTE_PLANS: text })).toThrow(/TRANSMUTE_PLANS/);
  });

  it('refuses a bad trusted proxy at start-up', () => {
    expect(() => loadConfig(clientIpConfig(), { TRANSMUTE_TRUSTED_PROXIES: '10.0.0.0/8, nonsense' })).toThrow(/TRANSMUTE_TRUSTED_PROXIES/);
  });

  it('formats usage as the counters display it', () => {
    expect(formatGb(1e9)).toBe('1.00 GB');
    expect(formatGb(0)).toBe('0.00 GB');
  });
});

describe('rate-limit windows', () => {
  it.each([
    ['the start of a minute', Date.UTC(2026, 10, 21, 10, 0, 0), 60],
    ['mid-minute', Date.UTC(2026, 10, 21, 10, 0, 30, 500), 30],
    ['the last millisecond', Date.UTC(2026, 10, 21, 10, 0, 59, 999), 1],
  ])('reset seconds at %s', (_name, now, reset) => {
    expect(windowOf(now).resetSeconds).toBe(reset);
    expect(windowOf(now).index).toBe(Math.floor(now / 60_000));
  });
});
