import { LOOPBACK } from '../net/free-ports';
import { delay } from '../net/wait-for-tcp';
import type { ManagedProcess } from '../process/managed-process';

export interface ReadinessTarget {
  managed: ManagedProcess;
  port: number;
}

const POLL_INTERVAL_MS = 250;
const REQUEST_TIMEOUT_MS = 2_000;
const LOG_LINES_ON_FAILURE = 20;

/** Whether GET /readyz answers 200 right now. */
export async function isReady(port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://${LOOPBACK}:${port}/readyz`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    await response.body?.cancel();
    return response.status === 200;
  } catch {
    return false;
  }
}

/**
 * Waits until every target's /readyz answers 200. Fails at once when a process
 * exits, or after timeoutMs, naming the services concerned with the end of
 * their output so the cause is in the error, not in a log hunt.
 */
export async function waitUntilReady(targets: readonly ReadinessTarget[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let pending = [...targets];
  for (;;) {
    const exited = pending.filter(({ managed }) => managed.hasExited);
    if (exited.length > 0) throw new Error(describeFailure('exited before becoming ready', exited));

    const ready = await Promise.all(pending.map(({ port }) => isReady(port)));
    pending = pending.filter((_, i) => !ready[i]);
    if (pending.length === 0) return;

    if (Date.now() >= deadline) throw new Error(describeFailure(`not ready after ${timeoutMs / 1000} s`, pending));
    await delay(POLL_INTERVAL_MS);
  }
}

function describeFailure(what: string, targets: readonly ReadinessTarget[]): string {
  const names = targets.map(({ managed }) => managed.name).join(', ');
  const logs = targets.map(({ managed, port }) => `--- ${managed.name} (port ${port}), last ${LOG_LINES_ON_FAILURE} lines ---\n${managed.outputTail(LOG_LINES_ON_FAILURE)}`);
  return [`services ${what}: ${names}`, ...logs].join('\n');
}
