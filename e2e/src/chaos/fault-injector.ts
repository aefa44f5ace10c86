import type { InfraService, RunningInfra, RunningPlatform } from '@transmute/devstack';

/** A fault: a service of the platform by name (SIGKILL, then started again), or `nats` / `store` (SIGKILL, restarted in place). */
export type FaultName = string;

export interface FaultRecord {
  fault: FaultName;
  killedAt: number;
  /** When the service answered /readyz again (or the component listened again). */
  readyAt?: number;
  error?: string;
}

const INFRA: Record<string, InfraService> = { nats: 'nats', store: 'store' };

/** Every fault a full run injects, in order: each service, each converter family, then NATS, then the store. */
export function defaultFaults(platform: RunningPlatform): FaultName[] {
  const order = ['gateway', 'job-orchestrator', 'importer'];
  const converters = platform.services.map((service) => service.name).filter((name) => name.startsWith('converter-'));
  return [...order, ...converters, 'exporter', 'webhook-dispatcher', 'catalogue', 'nats', 'store'];
}

export function checkFaults(faults: readonly FaultName[], platform: RunningPlatform): void {
  const known = new Set([...platform.services.map((service) => service.name), ...Object.keys(INFRA)]);
  const unknown = faults.filter((fault) => !known.has(fault));
  if (unknown.length) throw new Error(`unknown fault(s) ${unknown.join(', ')}; known: ${[...known].join(', ')}`);
}

/**
 * Kills one service (SIGKILL: no graceful shutdown, no chance to release work)
 * and brings it back after `downMs`, waiting until it is ready; NATS and the
 * store are SIGKILLed and restarted on the same port with the same data.
 */
export async function injectFault(fault: FaultName, downMs: number, platform: RunningPlatform, infra: RunningInfra): Promise<FaultRecord> {
  const record: FaultRecord = { fault, killedAt: Date.now() };
  try {
    const component = INFRA[fault];
    if (component) {
      // Killed and restarted at once: the outage is as long as the component takes to come back.
      await infra.restart(component);
    } else {
      const service = platform.services.find((candidate) => candidate.name === fault);
      if (!service) throw new Error(`no service ${fault}`);
      const exited = waitForExit(() => service.running);
      platform.killService(fault, 'SIGKILL');
      await exited;
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await platform.startService(fault);
    }
    record.readyAt = Date.now();
  } catch (error) {
    record.error = (error as Error).message;
  }
  return record;
}

async function waitForExit(running: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  // Give the signal a moment to land before the first look.
  await new Promise((resolve) => setTimeout(resolve, 50));
  while (running() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}
