import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '@transmute/devstack';

const run = promisify(execFile);

/** Runs `pnpm admin <args> --json` (the built CLI) against the platform's NATS and MongoDB and parses what it prints. */
export async function adminJson<T>(platformEnv: Record<string, string>, args: string[]): Promise<T> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('TRANSMUTE_')));
  const { stdout } = await run(process.execPath, [join(repoRoot(), 'services', 'gateway', 'dist', 'admin', 'main.js'), ...args, '--json'], {
    env: { ...inherited, ...platformEnv },
    timeout: 60_000,
  });
  return JSON.parse(stdout) as T;
}
