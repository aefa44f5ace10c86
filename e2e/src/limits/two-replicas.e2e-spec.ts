/**
 * Limits across two gateway replicas: 401 (missing, wrong key), 403 (IP
 * restriction), 429 shared by both replicas through NATS KV, a deleted key
 * refused at once by both, 422 past the plan's convert allowance, and 402 on
 * job creation once the GB allowance is spent, with charges answered by either
 * replica never spending past the allowance. Accounts and keys are made with
 * the admin CLI.
 */
import { connect, type NatsConnection } from 'nats';
import { platformFixture } from '../support/platform-fixture';
import { LIMIT_PLANS, absentJobPath, accountWithKey, admin, awayFromWindowEdge, call, charge } from './limits-support';

// No converter family: nothing here converts (the allowance rule is checked before formats are).
const env = platformFixture({ name: 'limits-keys', gatewayReplicas: 2, families: [], extraEnv: { TRANSMUTE_PLANS: JSON.stringify(LIMIT_PLANS) } });

const replicas = () => env().platform.gatewayUrls;

let nats: NatsConnection;
beforeAll(async () => {
  nats = await connect({ servers: env().platform.env['TRANSMUTE_NATS_URL'] });
});
afterAll(async () => {
  await nats?.close();
});

describe('API keys and the rate limit on two gateway replicas', () => {
  it('runs two gateway replicas', () => {
    expect(replicas()).toHaveLength(2);
    expect(new Set(replicas()).size).toBe(2);
  });

  it('answers 401 with the Error body for a missing or wrong key on every keyed route', async () => {
    const { key } = await accountWithKey(env().platform, 'free');
    const wrong = `${key.slice(0, -4)}0000` === key ? `${key.slice(0, -4)}1111` : `${key.slice(0, -4)}0000`;
    for (const baseUrl of replicas()) {
      for (const [method, path, json] of [
        ['GET', absentJobPath(), undefined],
        ['POST', '/v1/process/jobs', { tasks: { a: { operation: 'import/upload' } } }],
        ['POST', `${absentJobPath()}/complete-upload`, undefined],
      ] as const) {
        for (const presented of [null, wrong, 'not-a-key']) {
          const answer = await call(baseUrl, method, path, presented, json);
          expect({ presented, path, status: answer.status, body: answer.body }).toEqual({
            presented,
            path,
            status: 401,
            body: { status: 'error', message: 'missing or invalid API key' },
          });
        }
      }
    }
  });

  it('answers 403 to a key restricted to other addresses, on both replicas, and admits an allowed one', async () => {
    const restricted = await accountWithKey(env().platform, 'free', ['--allow-ip', '203.0.113.0/24']);
    const local = await accountWithKey(env().platform, 'free', ['--allow-ip', '127.0.0.1/32']);
    for (const baseUrl of replicas()) {
      const refused = await call(baseUrl, 'GET', absentJobPath(), restricted.key);
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 403, body: { status: 'error', message: 'this API key is restricted to other IP addresses' } });
      expect((await call(baseUrl, 'GET', absentJobPath(), local.key)).status).toBe(404);
    }
  });

  it('shares one rate limit between the replicas: the 6th request of a 5/min key is refused by either', async () => {
    const { key } = await accountWithKey(env().platform, 'e2e-rate');
    const [first, second] = replicas() as [string, string];
    await awayFromWindowEdge();
    const admitted = [];
    for (let i = 0; i < 5; i += 1) {
      const answer = await call(i % 2 === 0 ? first : second, 'GET', absentJobPath(), key);
      admitted.push({ status: answer.status, remaining: answer.headers.get('x-ratelimit-remaining'), limit: answer.headers.get('x-ratelimit-limit') });
    }
    expect(admitted).toEqual([4, 3, 2, 1, 0].map((remaining) => ({ status: 404, remaining: String(remaining), limit: '5' })));

    for (const baseUrl of [second, first]) {
      const limited = await call(baseUrl, 'GET', absentJobPath(), key);
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({
        status: 'error',
        message: 'rate limit of 5 requests per minute exceeded; retry after ' + limited.body.retry_after + ' s',
        retry_after: expect.any(Number),
      });
      expect(limited.body.retry_after).toBeGreaterThanOrEqual(1);
      expect(limited.body.retry_after).toBeLessThanOrEqual(60);
      expect(limited.headers.get('retry-after')).toBe(String(limited.body.retry_after));
      expect(limited.headers.get('x-ratelimit-limit')).toBe('5');
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(Number(limited.headers.get('x-ratelimit-reset'))).toBe(limited.body.retry_after);
    }
  });

  it('admits exactly the limit when 30 requests hit both replicas at once', async () => {
    const { key } = await accountWithKey(env().platform, 'e2e-rate');
    await awayFromWindowEdge();
    const statuses = await Promise.all(Array.from({ length: 30 }, (_, i) => call(replicas()[i % 2] as string, 'GET', absentJobPath(), key).then((a) => a.status)));
    expect({ admitted: statuses.filter((s) => s === 404).length, limited: statuses.filter((s) => s === 429).length }).toEqual({ admitted: 5, limited: 25 });
  });

  it('refuses a deleted key at once on both replicas', async () => {
    const { key, prefix } = await accountWithKey(env().platform, 'free');
    for (const baseUrl of replicas()) expect((await call(baseUrl, 'GET', absentJobPath(), key)).status).toBe(404);
    await admin(env().platform, 'keys', 'delete', prefix);
    for (const baseUrl of replicas()) {
      const answer = await call(baseUrl, 'GET', absentJobPath(), key);
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 401, body: { status: 'error', message: 'missing or invalid API key' } });
    }
  });

  it('answers 422 to more convert tasks than the plan allows, naming the allowance and the number requested', async () => {
    const { key } = await accountWithKey(env().platform, 'e2e-rate');
    const answer = await call(replicas()[0] as string, 'POST', '/v1/process/jobs', key, {
      tasks: {
        in: { operation: 'import/upload' },
        one: { operation: 'convert', input: 'in', input_format: 'png', output_format: 'jpg' },
        two: { operation: 'convert', input: 'one', output_format: 'webp' },
        out: { operation: 'export/url', input: ['two'] },
      },
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({ status: 'error', message: expect.stringMatching(/2 convert tasks.*allows 1/) });
  });

  it('never spends past the allowance when 20 charges race through both replicas, then answers 402 on job creation on both', async () => {
    const { accountId, key } = await accountWithKey(env().platform, 'e2e-bytes');
    // 1,500,000 bytes in all: 20 charges of 100,000 fit 15 times.
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => charge(nats, accountId, 100_000, `race-${i}`)));
    const refused = replies.filter((reply) => reply.error);
    expect({ charged: replies.length - refused.length, refused: refused.length }).toEqual({ charged: 15, refused: 5 });
    expect(refused[0].error).toMatchObject({ code: 'ERROR_CODE_QUOTA_EXCEEDED', message: expect.stringContaining('monthly and additional GB allowance used up') });
    expect(await admin(env().platform, 'usage', 'show', accountId)).toMatchObject({ monthlyUsedBytes: 1_000_000, additionalUsedBytes: 500_000 });

    for (const baseUrl of replicas()) {
      const answer = await call(baseUrl, 'POST', '/v1/process/jobs', key, {
        tasks: {
          in: { operation: 'import/upload' },
          c: { operation: 'convert', input: 'in', input_format: 'png', output_format: 'jpg' },
          out: { operation: 'export/url', input: ['c'] },
        },
      });
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 402,
        body: { status: 'error', message: 'monthly and additional GB allowance used up: nothing left to meter this job against' },
      });
    }
  });
});
