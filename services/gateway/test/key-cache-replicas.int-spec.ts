import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createInfraProvider, freePort, repoRoot, type RunningInfra } from '@transmute/devstack';
import { loadConfig } from '@transmute/service-kit';
import { connectRpcServer } from '@transmute/messaging';
import { AppModule, GATEWAY_APP_OPTIONS, SERVICE_NAME } from '../src/app.module';
import { gatewayConfig } from '../src/config';
import { KeysService } from '../src/keys';

/*
 * Two gateway replicas against real NATS and FerretDB: A in-process (its
 * KeysService is what the dashboard's delete calls), B the built gateway in a
 * process of its own (services/gateway/dist). Each replica keeps API keys and
 * accounts in memory; a change made through either replica or the admin CLI
 * is announced over NATS, and must count on the other replica at once: the
 * very next request after the change answers. Needs `pnpm build` (B, the CLI).
 */

const PLANS = {
  slow: { monthlyGb: 1, additionalGb: 1, dailyConversions: 5, convertAllowance: 5, rateLimitPerMinute: 50 },
  quick: { monthlyGb: 1, additionalGb: 1, dailyConversions: 5, convertAllowance: 5, rateLimitPerMinute: 70 },
};
const ADMIN_CLI = join(repoRoot(), 'services', 'gateway', 'dist', 'admin', 'main.js');
const GATEWAY_MAIN = join(repoRoot(), 'services', 'gateway', 'dist', 'main.js');

describe('API key and account caches across two gateway replicas (real NATS + FerretDB)', () => {
  let infra: RunningInfra;
  let storageRoot: string;
  let env: Record<string, string>;
  let app: INestApplication;
  let other: ChildProcess | undefined;
  const urls: string[] = [];

  async function admin(...args: string[]): Promise<any> {
    const { stdout } = await promisify(execFile)(process.execPath, [ADMIN_CLI, ...args, '--json'], { env: { PATH: process.env['PATH'] ?? '', ...env }, timeout: 60_000 });
    return JSON.parse(stdout);
  }

  const keyed = (replica: number, key: string) => fetch(`${urls[replica]}/v1/process/jobs/not-a-job-id`, { headers: { Authorization: `Bearer ${key}` } });
  /** The status each replica answers, A then B. */
  const statuses = async (key: string) => [(await keyed(0, key)).status, (await keyed(1, key)).status];

  async function replicaEnv(): Promise<Record<string, string>> {
    const port = await freePort();
    return {
      ...env,
      TRANSMUTE_HTTP_PORT: String(port),
      TRANSMUTE_PUBLIC_URL: `http://127.0.0.1:${port}`,
      TRANSMUTE_LOG_LEVEL: 'fatal',
      TRANSMUTE_STORAGE_FS_ROOT: storageRoot,
      TRANSMUTE_STORAGE_SIGNING_KEY: 'a'.repeat(64),
      TRANSMUTE_DOWNLOAD_TOKEN_KEY: 'b'.repeat(64),
      TRANSMUTE_RPC_TIMEOUT_MS: '1000',
    };
  }

  async function startInProcess(): Promise<void> {
    const config = loadConfig(gatewayConfig, await replicaEnv());
    app = await NestFactory.create(AppModule.forRoot(config), { ...GATEWAY_APP_OPTIONS, logger: false });
    await connectRpcServer(app, { url: config.natsUrl, queue: SERVICE_NAME });
    await app.listen(config.httpPort, config.httpHost);
    urls.push(config.publicUrl);
  }

  async function startProcess(): Promise<void> {
    const replica = await replicaEnv();
    const url = replica['TRANSMUTE_PUBLIC_URL'] as string;
    other = spawn(process.execPath, [GATEWAY_MAIN], { env: { PATH: process.env['PATH'] ?? '', ...replica }, stdio: 'ignore' });
    const deadline = Date.now() + 120_000;
    while ((await fetch(`${url}/readyz`).catch(() => undefined))?.status !== 200) {
      if (other.exitCode !== null) throw new Error(`the second gateway (${GATEWAY_MAIN}) exited with ${other.exitCode}; run pnpm build`);
      if (Date.now() > deadline) throw new Error('the second gateway was not ready within 120 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    urls.push(url);
  }

  beforeAll(async () => {
    infra = await createInfraProvider().start();
    storageRoot = await mkdtemp(join(tmpdir(), 'gateway-key-cache-it-'));
    env = {
      TRANSMUTE_NATS_URL: infra.natsUrl,
      TRANSMUTE_MONGODB_URI: `${infra.mongoUri}gateway_key_cache_it`,
      TRANSMUTE_PLANS: JSON.stringify(PLANS),
      TRANSMUTE_DEV_API_KEY: `tm_dev_${randomBytes(16).toString('hex')}`,
    };
    await startInProcess();
    await startProcess();
    await admin('accounts', 'create', 'shop', '--plan', 'slow');
  });

  afterAll(async () => {
    other?.kill('SIGTERM');
    await app?.close();
    await infra?.stop();
    if (storageRoot) await rm(storageRoot, { recursive: true, force: true });
  });

  /** A new key of `shop`, accepted (and so cached) by both replicas. */
  async function cachedKey(): Promise<{ key: string; prefix: string }> {
    const created = (await admin('keys', 'create', 'shop')) as { key: string; prefix: string };
    expect(await statuses(created.key)).toEqual([404, 404]);
    return created;
  }

  it('serves a key from the cache: removed from the store without an announcement, it still passes until announced', async () => {
    const { key, prefix } = await cachedKey();
    const db = app.get<{ db: { collection(name: string): { deleteOne(filter: object): Promise<unknown> } } }>('DatabaseConnection').db;
    await db.collection('api_keys').deleteOne({ _id: prefix });
    // Without the cache both would answer 401 here: the test below would prove nothing.
    expect(await statuses(key)).toEqual([404, 404]);
    await expect(app.get(KeysService).deleteKey(prefix)).rejects.toThrow(/no key/);
    expect(await statuses(key)).toEqual([401, 401]);
  });

  it('refuses a key deleted with the admin CLI on both replicas at once', async () => {
    const { key, prefix } = await cachedKey();
    expect(await admin('keys', 'delete', prefix)).toEqual({ deleted: prefix });
    expect(await statuses(key)).toEqual([401, 401]);
  });

  it('refuses a key deleted through one replica (the dashboard path) on the other at once', async () => {
    for (let round = 0; round < 5; round += 1) {
      const { key, prefix } = await cachedKey();
      await app.get(KeysService).deleteKey(prefix);
      expect((await keyed(1, key)).status).toBe(401);
      expect((await keyed(0, key)).status).toBe(401);
    }
  });

  it('counts a suspension and a plan change on both replicas at once', async () => {
    const { key } = await cachedKey();
    expect((await keyed(1, key)).headers.get('x-ratelimit-limit')).toBe('50');
    await admin('accounts', 'suspend', 'shop');
    expect(await statuses(key)).toEqual([403, 403]);
    await admin('accounts', 'unsuspend', 'shop');
    expect(await statuses(key)).toEqual([404, 404]);
    await admin('accounts', 'set-plan', 'shop', 'quick');
    expect((await keyed(0, key)).headers.get('x-ratelimit-limit')).toBe('70');
    expect((await keyed(1, key)).headers.get('x-ratelimit-limit')).toBe('70');
  });
});
