import { pidListeningOn, processTreeCpuSeconds, processUsage } from '@transmute/devstack';
import type { StoreServer } from './store-usage';

/**
 * The CPU the whole platform spends: every service process, NATS and
 * FerretDB, with the engines they spawn (process trees, reaped children
 * included). The benchmark's own client and the raw engine loop are not in it.
 */
export class PlatformCpu {
  private readonly portPids = new Map<number, number>();

  constructor(private readonly processes: readonly StoreServer[]) {}

  /** The root pids now (a restarted service has a new one; a store server is found by its port once). */
  async roots(): Promise<number[]> {
    const pids: number[] = [];
    for (const process of this.processes) {
      if ('port' in process) {
        let pid = this.portPids.get(process.port);
        if (pid === undefined) {
          pid = await pidListeningOn(process.port);
          if (pid !== undefined) this.portPids.set(process.port, pid);
        }
        if (pid !== undefined) pids.push(pid);
      } else {
        const pid = process.pid();
        if (pid !== undefined) pids.push(pid);
      }
    }
    return pids;
  }

  async seconds(): Promise<number> {
    return processTreeCpuSeconds(await this.roots());
  }

  /** Runs `work` and returns its result with the platform's CPU seconds over it. */
  async around<T>(work: () => Promise<T>): Promise<{ result: T; cpuSeconds: number; processes: number }> {
    const roots = await this.roots();
    const before = await processTreeCpuSeconds(roots);
    const result = await work();
    const after = await processTreeCpuSeconds(roots);
    return { result, cpuSeconds: after - before, processes: roots.length };
  }
}

/** Peak resident memory of one process tree's root, sampled every `everyMs` while `work` runs. */
export async function peakRss<T>(pid: () => number | undefined, everyMs: number, work: () => Promise<T>): Promise<{ result: T; peakBytes: number; beforeBytes: number }> {
  const read = async () => {
    const current = pid();
    return current === undefined ? 0 : ((await processUsage(current).catch(() => undefined))?.rssBytes ?? 0);
  };
  const beforeBytes = await read();
  let peakBytes = beforeBytes;
  let running = true;
  const sampler = (async () => {
    while (running) {
      peakBytes = Math.max(peakBytes, await read());
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  try {
    const result = await work();
    running = false;
    await sampler;
    return { result, peakBytes: Math.max(peakBytes, await read()), beforeBytes };
  } finally {
    running = false;
  }
}
