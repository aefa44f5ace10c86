import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort, repoRoot } from '@transmute/devstack';

/** A second gateway process beside the platform's, on its own port, with the platform's variables. */
export interface GatewayReplica {
  baseUrl: string;
  stop(): Promise<void>;
}

export async function startGatewayReplica(platformEnv: Record<string, string>): Promise<GatewayReplica> {
  const port = await freePort();
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('TRANSMUTE_')));
  const child: ChildProcess = spawn(process.execPath, [join(repoRoot(), 'services', 'gateway', 'dist', 'main.js')], {
    env: { ...inherited, ...platformEnv, TRANSMUTE_HTTP_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the second gateway exited (${child.exitCode}):\n${output.slice(-3_000)}`);
    try {
      const response = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the second gateway was not ready within 60 s:\n${output.slice(-3_000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    baseUrl,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}
