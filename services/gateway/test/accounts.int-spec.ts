import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type NatsConnection, connect } from 'nats';
import { Subjects } from '@transmute/contracts';
import { repoRoot } from '@transmute/devstack';
import { type GatewayForTest, startGatewayForTest } from './gateway-for-test';

/*
 * The accounts module in a real gateway (in-process) against real NATS and
 * FerretDB, managed through the real admin CLI (services/gateway/dist: run
 * `pnpm build` first). No orchestrator runs: a keyed GET of a malformed job
 * id answers 404 once the guard let the request through.
 */

const DEV_KEY = `tm_dev_${randomBytes(16).toString('hex')}`;
const PLANS = {
  // Tight figures so the limits are crossed within a test.
  tiny: { monthlyGb: 0.00001, additionalGb: 0.000005, dailyConversions: 2, convertAllowance: 1, rateLimitPerMinute: 3 },
};
const ADMIN_CLI = join(repoRoot(), 'services', 'gateway', 'dist', 'admin', 'main.js');

describe('accounts, keys, rate limits and usage (real NATS + FerretDB, admin CLI)', () => {
  let gateway: GatewayForTest;
  let nats: NatsConnection;
  let baseUrl: string;
  let env: Record<string, string>;

  async function admin(...args: string[]): Promise<{ code: number; json: any }> {
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [ADMIN_CLI, ...args, '--json'], {
        env: { PATH: process.env['PATH'] ?? '', ...env },
        timeout: 60_000,
      });
      return { code: 0, json: JSON.parse(stdout) };
    } catch (error) {
      const failed = error as { code?: number; stdout?: string; stderr?: string };
      if (typeof failed.code !== 'number') throw error;
      return { code: failed.code, json: failed.stdout ? JSON.parse(failed.stdout) : { stderr: failed.stderr } };
    }
  }

  const keyed = (key: string | null, headers: Record<string, string> = {}) =>
    fetch(`${baseUrl}/v1/process/jobs/not-a-job-id`, { headers: { ...(key && { Authorization: `Bearer ${key}` }), ...headers } });

  /** Rate-limit tests must not straddle a window boundary. */
  async function awayFromWindowEdge(): Promise<void> {
    const intoWindow = Date.now() % 60_000;
    if (intoWindow > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoWindow));
  }

  beforeAll(async () => {
    gateway = await startGatewayForTest({
      database: 'gateway_accounts_it',
      env: { TRANSMUTE_PLANS: JSON.stringify(PLANS), TRANSMUTE_DEV_API_KEY: DEV_KEY, TRANSMUTE_RPC_TIMEOUT_MS: '1000' },
      rpcServer: true,
    });
    baseUrl = gateway.baseUrl;
    // What the admin CLI reads: the same store and NATS, plans and dev key as the gateway.
    env = {
      TRANSMUTE_NATS_URL: gateway.config.natsUrl,
      TRANSMUTE_MONGODB_URI: gateway.config.mongoUri,
      TRANSMUTE_PLANS: JSON.stringify(PLANS),
      TRANSMUTE_DEV_API_KEY: DEV_KEY,
    };
    nats = await connect({ servers: gateway.infra.natsUrl });
  });

  afterAll(async () => {
    await nats?.close();
    await gateway?.stop();
  });

  it('seeds the development key at start-up (dev plan, no rate limit in sight)', async () => {
    const response = await keyed(DEV_KEY);
    expect(response.status).toBe(404);
    expect(response.headers.get('x-ratelimit-limit')).toBe('100000');
    // make up runs the same through the CLI: idempotent.
    expect(await admin('seed-dev')).toEqual({ code: 0, json: { accountId: 'dev', keyPrefix: 'dev' } });
    expect((await keyed(DEV_KEY)).status).toBe(404);
    const shown = await admin('accounts', 'show', 'dev');
    expect(shown.json).toMatchObject({ id: 'dev', plan: 'dev', keys: [{ prefix: 'dev' }] });
  });

  it.each([
    ['no key', null, {}],
    ['a well-formed unknown key', `tm_0123456789ab_${'a'.repeat(48)}`, {}],
    ['a malformed key', 'hello', {}],
    ['the dev key with one character changed', `${DEV_KEY.slice(0, -1)}${DEV_KEY.endsWith('0') ? '1' : '0'}`, {}],
  ])('answers 401 with the Error body for %s', async (_name, key, headers) => {
    const response = await keyed(key, headers);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ status: 'error', message: 'missing or invalid API key' });
  });

  it('creates an account and a key with the CLI; the key works with Bearer and X-API-Key and is stored only as a hash', async () => {
    expect((await admin('accounts', 'create', 'acme', '--plan', 'free', '--name', 'Acme')).json).toMatchObject({ id: 'acme', plan: 'free' });
    expect((await admin('accounts', 'create', 'acme')).code).toBe(1);
    expect((await admin('accounts', 'create', 'acme', '--if-absent')).code).toBe(0);
    const created = await admin('keys', 'create', 'acme', '--label', 'ci');
    expect(created.json.key).toMatch(/^tm_[0-9a-f]{12}_[0-9a-f]{48}$/);

    expect((await keyed(created.json.key)).status).toBe(404);
    expect((await fetch(`${baseUrl}/v1/process/jobs/x`, { headers: { 'X-API-Key': created.json.key } })).status).toBe(404);

    const stored = await gateway.app.get(getConnectionToken()).db.collection('api_keys').findOne({ _id: created.json.prefix });
    expect(stored.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(created.json.key.split('_')[2]);
    const listed = await admin('keys', 'list', 'acme');
    expect(listed.json).toEqual([expect.objectContaining({ prefix: created.json.prefix, label: 'ci', allowedIps: [] })]);
    expect(JSON.stringify(listed.json)).not.toContain(created.json.key);
  });

  it('answers 403 from an address the key is not allowed from, and lets the allowed address in', async () => {
    const elsewhere = await admin('keys', 'create', 'acme', '--allow-ip', '203.0.113.0/24', '--allow-ip', '2001:db8::/32');
    const here = await admin('keys', 'create', 'acme', '--allow-ip', '127.0.0.1');
    expect(elsewhere.json.allowedIps).toEqual(['203.0.113.0/24', '2001:db8::/32']);

    const refused = await keyed(elsewhere.json.key);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ status: 'error', message: 'this API key is restricted to other IP addresses' });
    // Without trusted proxies, X-Forwarded-For cannot claim an allowed address.
    expect((await keyed(elsewhere.json.key, { 'X-Forwarded-For': '203.0.113.9' })).status).toBe(403);
    expect((await keyed(here.json.key)).status).toBe(404);
    const bad = await admin('keys', 'create', 'acme', '--allow-ip', 'not-an-ip');
    expect(bad).toEqual({ code: 1, json: { status: 'error', message: '"not-an-ip" is not an IP address or CIDR' } });
  });

  it('answers 429 past the plan rate, with retry_after and the X-RateLimit headers', async () => {
    await admin('accounts', 'create', 'limited', '--plan', 'tiny');
    const { json: key } = await admin('keys', 'create', 'limited');
    await awayFromWindowEdge();
    const statuses: number[] = [];
    const remaining: Array<string | null> = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await keyed(key.key);
      statuses.push(response.status);
      remaining.push(response.headers.get('x-ratelimit-remaining'));
    }
    const limited = await keyed(key.key);
    const body = (await limited.json()) as { retry_after: number };
    expect(statuses).toEqual([404, 404, 404]);
    expect(remaining).toEqual(['2', '1', '0']);
    expect(limited.status).toBe(429);
    expect(body).toEqual({ status: 'error', message: expect.stringContaining('3 requests per minute'), retry_after: expect.any(Number) });
    expect(body.retry_after).toBeGreaterThanOrEqual(1);
    expect(body.retry_after).toBeLessThanOrEqual(60);
    expect(limited.headers.get('retry-after')).toBe(String(body.retry_after));
    expect(limited.headers.get('x-ratelimit-limit')).toBe('3');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('x-ratelimit-reset')).toBe(String(body.retry_after));
    // Another key of another account is not affected.
    expect((await keyed(DEV_KEY)).status).toBe(404);
  });

  it('counts concurrent requests exactly: 20 at once on a 3/min key admit 3', async () => {
    const { json: key } = await admin('keys', 'create', 'limited');
    await awayFromWindowEdge();
    const statuses = await Promise.all(Array.from({ length: 20 }, () => keyed(key.key).then((r) => r.status)));
    expect(statuses.filter((s) => s === 404)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(17);
  });

  it('refuses a deleted key at once', async () => {
    const { json: key } = await admin('keys', 'create', 'acme');
    expect((await keyed(key.key)).status).toBe(404);
    expect((await admin('keys', 'delete', key.prefix)).json).toEqual({ deleted: key.prefix });
    expect((await keyed(key.key)).status).toBe(401);
    expect((await admin('keys', 'delete', key.prefix)).code).toBe(1);
  });

  it('serves the signing secret over accounts.signing-secret and rotates it', async () => {
    const ask = async (accountId: string) =>
      JSON.parse(
        new TextDecoder().decode(
          (
            await nats.request(
              Subjects.accountsSigningSecret,
              new TextEncoder().encode(JSON.stringify({ pattern: Subjects.accountsSigningSecret, data: { accountId }, id: '1' })),
              { timeout: 5_000 },
            )
          ).data,
        ),
      ).response;
    const shown = await admin('signing-secret', 'show', 'acme');
    expect(shown.json.signingSecret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(await ask('acme')).toEqual({ secret: shown.json.signingSecret });
    const rotated = await admin('signing-secret', 'rotate', 'acme');
    expect(rotated.json.signingSecret).not.toBe(shown.json.signingSecret);
    expect(await ask('acme')).toEqual({ secret: rotated.json.signingSecret });
    expect(await ask('nobody')).toEqual({ error: expect.objectContaining({ code: 'ERROR_CODE_NOT_FOUND' }) });
  });

  it('meters charges exactly under concurrency: 20 charges of 1,000 bytes against 15,000 bytes spend 15,000', async () => {
    await admin('accounts', 'create', 'metered', '--plan', 'tiny');
    const charge = async (chargeId: string, bytes = 1000) =>
      JSON.parse(
        new TextDecoder().decode(
          (
            await nats.request(
              Subjects.accountsUsageCharge,
              new TextEncoder().encode(JSON.stringify({ pattern: Subjects.accountsUsageCharge, data: { accountId: 'metered', bytes: String(bytes), chargeId }, id: chargeId })),
              { timeout: 30_000 },
            )
          ).data,
        ),
      ).response;
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => charge(`job${i}/convert`)));
    const refused = replies.filter((reply) => reply.error);
    expect(replies.length - refused.length).toBe(15);
    expect(refused[0].error).toMatchObject({ code: 'ERROR_CODE_QUOTA_EXCEEDED', message: expect.stringContaining('monthly and additional GB allowance used up') });
    const usage = (await admin('usage', 'show', 'metered')).json;
    expect(usage).toMatchObject({ monthlyUsedBytes: 10_000, monthlyAllowanceBytes: 10_000, additionalUsedBytes: 5_000, additionalAllowanceBytes: 5_000 });
    // A charge already applied (redelivery) spends nothing more and succeeds.
    const applied = replies.findIndex((reply) => reply.usage);
    expect((await charge(`job${applied}/convert`)).usage).toBeDefined();
    expect((await admin('usage', 'show', 'metered')).json.additionalUsedBytes).toBe(5_000);

    // One charge id asked twice at once (two handlers of one job) while the allowance is spent: neither passes.
    const racing = await Promise.all([charge('late/convert'), charge('late/convert'), charge('late/convert')]);
    expect(racing.filter((reply) => reply.usage)).toEqual([]);
    expect(racing.map((reply) => reply.error?.code)).toContain('ERROR_CODE_QUOTA_EXCEEDED');
    for (const reply of racing) expect(['ERROR_CODE_QUOTA_EXCEEDED', 'ERROR_CODE_UNAVAILABLE']).toContain(reply.error?.code);
    expect((await charge('late/convert')).error).toMatchObject({ code: 'ERROR_CODE_QUOTA_EXCEEDED' });
  });

  it('measures what authentication and the shared rate limit add to a request', async () => {
    const timed = async (request: () => Promise<Response>): Promise<number[]> => {
      const times: number[] = [];
      for (let i = 0; i < 40; i += 1) {
        const started = performance.now();
        expect((await request()).status).toBe(404);
        times.push(performance.now() - started);
      }
      return times.sort((a, b) => a - b);
    };
    const keyedTimes = await timed(() => keyed(DEV_KEY));
    const bareTimes = await timed(() => fetch(`${baseUrl}/v1/no-such-route`));
    const p50 = (times: number[]) => (times[Math.floor(times.length / 2)] as number).toFixed(1);
    process.stdout.write(`keyed request p50 ${p50(keyedTimes)} ms, unkeyed 404 p50 ${p50(bareTimes)} ms (40 sequential each, load ${loadavg()[0]?.toFixed(1)})\n`);
  });

  it('lists plans and moves an account to another plan', async () => {
    const plans = (await admin('plans', 'list')).json as Array<{ name: string; monthlyBytes: number; dailyConversions: number }>;
    expect(plans.find((plan) => plan.name === 'free')).toMatchObject({ monthlyBytes: 1e9, dailyConversions: 5 });
    expect(plans.map((plan) => plan.name)).toEqual(expect.arrayContaining(['free', 'pro', 'anonymous', 'tiny']));
    expect((await admin('accounts', 'set-plan', 'acme', 'pro')).json).toMatchObject({ id: 'acme', plan: 'pro' });
    expect((await admin('accounts', 'set-plan', 'acme', 'gold')).code).toBe(1);
    expect((await admin('accounts', 'list')).json.map((a: { id: string }) => a.id)).toEqual(expect.arrayContaining(['acme', 'dev', 'limited', 'metered']));
  });
});

function getConnectionToken(): string {
  // @nestjs/mongoose's default connection token.
  return 'DatabaseConnection';
}
