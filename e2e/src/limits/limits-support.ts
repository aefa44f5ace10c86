import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { NatsConnection } from 'nats';
import { repoRoot } from '@transmute/devstack';
import type { RunningPlatform } from '@transmute/devstack';

/** Plans with figures small enough to cross in a test; passed to every service as TRANSMUTE_PLANS. */
export const LIMIT_PLANS = {
  // 5 keyed requests per minute, one convert per job.
  'e2e-rate': { monthlyGb: 1, additionalGb: 0, dailyConversions: 100, convertAllowance: 1, rateLimitPerMinute: 5 },
  // Three conversions a day.
  'e2e-daily': { monthlyGb: 1, additionalGb: 0, dailyConversions: 3, convertAllowance: 5, rateLimitPerMinute: 100000 },
  // 1 MB monthly + 0.5 MB additional; the test spends most of it first.
  'e2e-bytes': { monthlyGb: 0.001, additionalGb: 0.0005, dailyConversions: 1000, convertAllowance: 5, rateLimitPerMinute: 100000 },
};

const ADMIN_CLI = join(repoRoot(), 'services', 'gateway', 'dist', 'admin', 'main.js');

/** `transmute-admin <args> --json` against the running platform (its NATS, database and plans). */
export async function admin(platform: RunningPlatform, ...args: string[]): Promise<any> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [ADMIN_CLI, ...args, '--json'], {
      env: { PATH: process.env['PATH'] ?? '', ...platform.env },
      timeout: 60_000,
    });
    return JSON.parse(stdout);
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`transmute-admin ${args.join(' ')} failed: ${failed.stdout ?? ''} ${failed.stderr ?? failed.message}`);
  }
}

/** A new account on `plan` with one key; returns the key. */
export async function accountWithKey(platform: RunningPlatform, plan: string, keyOptions: string[] = []): Promise<{ accountId: string; key: string; prefix: string }> {
  const accountId = `e2e-${randomBytes(4).toString('hex')}`;
  await admin(platform, 'accounts', 'create', accountId, '--plan', plan);
  const created = await admin(platform, 'keys', 'create', accountId, ...keyOptions);
  return { accountId, key: created.key, prefix: created.prefix };
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** One raw HTTP call (no contract check, no retries): what a client sees at a limit. */
export async function call(baseUrl: string, method: string, path: string, key: string | null, json?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (key) headers['Authorization'] = `Bearer ${key}`;
  if (json !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    redirect: 'manual',
    ...(json !== undefined && { body: JSON.stringify(json) }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body };
}

/** A job id that cannot exist: a keyed GET answers 404 once authentication and the rate limit let it through. */
export const absentJobPath = (): string => `/v1/process/jobs/${randomBytes(16).toString('hex')}`;

/** Rate-limit steps must not straddle the minute boundary where the window resets. */
export async function awayFromWindowEdge(marginMs = 15_000): Promise<void> {
  const intoWindow = Date.now() % 60_000;
  if (intoWindow > 60_000 - marginMs) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoWindow));
}

/**
 * Spends bytes the way the orchestrator does before a convert: a NestJS NATS
 * request/reply packet on `accounts.usage.charge`, answered by any gateway
 * replica. Returns the reply (`{ usage }` or `{ error }`, proto3 JSON).
 */
export async function charge(nats: NatsConnection, accountId: string, bytes: number, chargeId: string): Promise<any> {
  const packet = { pattern: 'accounts.usage.charge', data: { accountId, bytes: String(bytes), chargeId }, id: chargeId };
  const reply = await nats.request('accounts.usage.charge', new TextEncoder().encode(JSON.stringify(packet)), { timeout: 30_000 });
  return JSON.parse(new TextDecoder().decode(reply.data)).response;
}
