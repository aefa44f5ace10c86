import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type GatewayForTest, startGatewayForTest } from './gateway-for-test';

/*
 * Sandbox job creation on the whole gateway in-process (real NATS and
 * FerretDB; no orchestrator, so an admitted call ends in 503 after the
 * guard has decided): no key is needed, but a wrong key is refused and
 * every call counts against a rate limit.
 */
const API_KEY = `tm_dev_${randomBytes(24).toString('hex')}`;
const SANDBOX_LIMIT = 3;
const sandboxJob = { sandbox: true, tasks: { in: { operation: 'import/upload', filename: 'a.png' }, c: { operation: 'convert', input: 'in', output_format: 'jpg' } } };

describe('sandbox calls: no key needed, a wrong key refused, a rate limit either way', () => {
  let gateway: GatewayForTest;
  let baseUrl: string;

  beforeAll(async () => {
    gateway = await startGatewayForTest({
      database: 'gateway_sandbox_it',
      env: {
        TRANSMUTE_DEV_API_KEY: API_KEY,
        TRANSMUTE_RPC_TIMEOUT_MS: '300',
        TRANSMUTE_SANDBOX_RATE_LIMIT_PER_MINUTE: String(SANDBOX_LIMIT),
        // Loopback is the proxy here, so X-Forwarded-For names other client addresses.
        TRANSMUTE_TRUSTED_PROXIES: '127.0.0.1',
      },
    });
    baseUrl = gateway.baseUrl;
  });

  afterAll(() => gateway?.stop());

  const create = (headers: Record<string, string> = {}) =>
    fetch(`${baseUrl}/v1/process/jobs`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '198.51.100.1', ...headers },
      body: JSON.stringify(sandboxJob),
    });

  /** Windows are clock minutes: start a run of calls early in one, so they all fall in it. */
  async function freshWindow(): Promise<void> {
    const secondsLeft = 60 - new Date().getUTCSeconds();
    if (secondsLeft < 15) await sleep(secondsLeft * 1000 + 200);
  }

  it('refuses a key that is sent but wrong with 401, as on every other call', async () => {
    for (const headers of [{ Authorization: 'Bearer tm_nope_0000' }, { 'X-API-Key': 'wrong' }] as Record<string, string>[]) {
      const reply = await create(headers);
      expect(reply.status).toBe(401);
      expect(await reply.json()).toEqual({ status: 'error', message: 'missing or invalid API key' });
    }
  });

  it('counts keyless calls per client address: the limit, then 429 with retry_after; another address has its own window', async () => {
    await freshWindow();
    const admitted: number[] = [];
    for (let call = 0; call < SANDBOX_LIMIT; call++) {
      const reply = await create();
      // Admitted: it reached the job store, which does not run here.
      expect(reply.status).toBe(503);
      expect(reply.headers.get('x-ratelimit-limit')).toBe(String(SANDBOX_LIMIT));
      admitted.push(Number(reply.headers.get('x-ratelimit-remaining')));
    }
    expect(admitted).toEqual([2, 1, 0]);
    const refused = await create();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ status: 'error', retry_after: expect.any(Number) });

    expect((await create({ 'X-Forwarded-For': '198.51.100.2' })).status).toBe(503);
  });

  it("counts a call with a key against that key's window, not the address's", async () => {
    await freshWindow();
    for (let call = 0; call <= SANDBOX_LIMIT; call++) await create({ 'X-Forwarded-For': '198.51.100.3' });
    expect((await create({ 'X-Forwarded-For': '198.51.100.3' })).status).toBe(429);

    const keyed = await create({ 'X-Forwarded-For': '198.51.100.3', Authorization: `Bearer ${API_KEY}` });
    expect(keyed.status).toBe(503);
    // The dev plan's limit, not the sandbox one.
    expect(Number(keyed.headers.get('x-ratelimit-limit'))).toBeGreaterThan(SANDBOX_LIMIT);
  });
});
