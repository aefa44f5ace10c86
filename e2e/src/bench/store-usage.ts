import { pidListeningOn, processUsage, type ProcessUsage } from '@transmute/devstack';

/** A process to watch: a store server found by the port it listens on, or a service by its pid. */
export type StoreServer = { label: string; port: number } | { label: string; pid: () => number | undefined };

export type UsageSnapshot = Map<string, ProcessUsage | string>;

/** Port of a nats:// or mongodb:// URL. */
export function portOf(url: string): number {
  const port = Number(new URL(url).port);
  if (!port) throw new Error(`no port in ${url}`);
  return port;
}

export async function snapshot(servers: readonly StoreServer[]): Promise<UsageSnapshot> {
  const result: UsageSnapshot = new Map();
  for (const server of servers) {
    const pid = 'port' in server ? await pidListeningOn(server.port) : server.pid();
    const missing = 'port' in server ? `no process visible listening on ${server.port}` : 'not running';
    result.set(server.label, pid === undefined ? missing : await processUsage(pid).catch((error: Error) => error.message));
  }
  return result;
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/**
 * CPU seconds each process used between two snapshots and, after the slash,
 * seconds it waited for a CPU while runnable; largest CPU first:
 * `gateway 3.1/0.4, job-orchestrator 2.0/0.2, ...`.
 */
export function cpuShares(before: UsageSnapshot, after: UsageSnapshot): string {
  const used = [...after].flatMap(([label, now]) => {
    const then = before.get(label);
    if (typeof now === 'string' || then === undefined || typeof then === 'string' || then.pid !== now.pid) return [];
    return [{ label, cpu: now.cpuSeconds - then.cpuSeconds, waited: now.runQueueSeconds - then.runQueueSeconds }];
  });
  return used
    .sort((a, b) => b.cpu - a.cpu)
    .map(({ label, cpu, waited }) => `${label} ${cpu.toFixed(1)}/${waited.toFixed(1)}`)
    .join(', ');
}

/** One line per server: CPU seconds used between the snapshots, RSS before -> after. */
export function usageLines(before: UsageSnapshot, after: UsageSnapshot): string[] {
  return [...after].map(([label, now]) => {
    const then = before.get(label);
    if (typeof now === 'string') return `${label}: ${now}`;
    if (then === undefined || typeof then === 'string' || then.pid !== now.pid)
      return `${label} (pid ${now.pid}): CPU ${now.cpuSeconds.toFixed(2)} s total, RSS ${mib(now.rssBytes)}`;
    const waited = (now.runQueueSeconds - then.runQueueSeconds).toFixed(2);
    return `${label} (pid ${now.pid}): CPU ${(now.cpuSeconds - then.cpuSeconds).toFixed(2)} s in the phase (${then.cpuSeconds.toFixed(2)} -> ${now.cpuSeconds.toFixed(2)} s), waited ${waited} s for a CPU, RSS ${mib(then.rssBytes)} -> ${mib(now.rssBytes)}`;
  });
}
