import { ManagedProcess } from '../process/managed-process';
import { LOOPBACK } from '../net/free-ports';

export const STOP_GRACE_MS = 5_000;

/** Polls `probe` until it answers true, or fails with the server's last output. */
export async function waitUntilReady(managed: ManagedProcess, what: string, probe: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    managed.assertRunning();
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) {
      throw new Error(`${what} did not become ready on ${LOOPBACK} within ${timeoutMs} ms\n${managed.name} output:\n${managed.outputTail(20)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A stop function that runs once, however often it is called. */
export function stopOnce(managed: ManagedProcess, after?: () => Promise<void>): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () =>
    (stopping ??= (async () => {
      await managed.stop(STOP_GRACE_MS);
      await after?.();
    })());
}

/** GET that resolves to the status code, or 0 when nothing answers. */
export async function httpStatus(url: string): Promise<number> {
  const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  await response.arrayBuffer();
  return response.status;
}
