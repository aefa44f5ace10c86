import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '@transmute/devstack';

const run = promisify(execFile);

/**
 * The account holder's view of the webhook signing secret, through the admin
 * CLI (`pnpm admin signing-secret show|rotate <account>`), pointed at the
 * platform's NATS and MongoDB.
 */
export async function signingSecret(platformEnv: Record<string, string>, accountId: string, action: 'show' | 'rotate' = 'show'): Promise<string> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('TRANSMUTE_')));
  const { stdout } = await run(process.execPath, [join(repoRoot(), 'services', 'gateway', 'dist', 'admin', 'main.js'), 'signing-secret', action, accountId, '--json'], {
    env: { ...inherited, ...platformEnv },
    timeout: 60_000,
  });
  const secret = (JSON.parse(stdout) as { signingSecret?: string }).signingSecret;
  if (!secret) throw new Error(`the admin CLI printed no signingSecret: ${stdout.slice(0, 200)}`);
  return secret;
}
