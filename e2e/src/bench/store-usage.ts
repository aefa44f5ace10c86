import { pidListeningOn, processUsage, type ProcessUsage } from '@transmute/devstack';

/** A store server, found by the port it listens on. */
export interface StoreServer {
  label: string;
  port: number;
}

export type UsageSnapshot = Map<string, ProcessUsage | string>;

/** Port of a nats:// or mongodb:// URL. */
export function portOf(url: string): number {
  const port = Number(new URL(url).port);
  if (!port) throw new Error(`no port in ${url}`);
  return port;
}

export async function snapshot(servers: readonly StoreServer[]): Promise<UsageSnapshot> {
  const result: UsageSnapshot = new Map();
  for (const { label, port } of servers) {
    const pid = await pidListeningOn(port);
    result.set(label, pid === undefined ? `no process visible listening on ${port}` : await processUsage(pid).catch((error: Error) => error.message));
  }
  return result;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** One line per server: CPU seconds used between the snapshots, RSS before -> after. */
export function usageLines(before: UsageSnapshot, after: UsageSnapshot): string[] {
  return [...after].map(([label, now]) => {
    const then = before.get(label);
    if (typeof now === 'string') return `${label}: ${now}`;
    if (then === undefined || typeof then === 'string' || then.pid !== now.pid) return `${label} (pid ${now.pid}): CPU ${now.cpuSeconds.toFixed(2)} s total, RSS ${mib(now.rssBytes)}`;
    return `${label} (pid ${now.pid}): CPU ${(now.cpuSeconds - then.cpuSeconds).toFixed(2)} s in the phase (${then.cpuSeconds.toFixed(2)} -> ${now.cpuSeconds.toFixed(2)} s), RSS ${mib(then.rssBytes)} -> ${mib(now.rssBytes)}`;
  });
}
