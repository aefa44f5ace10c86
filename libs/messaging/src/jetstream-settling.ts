import { Logger } from '@nestjs/common';

/**
 * What JetStream answers while its cluster forms or elects a leader: on a
 * first install, or while a server restarts. A service starting then waits,
 * rather than exiting into the kubelet's crash-loop back-off (up to five
 * minutes a restart) after the cluster has long become whole.
 */
export function isJetStreamSettling(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /no suitable peers|temporarily unavailable|no responders|^503$|timeout/i.test(error.message) || (error as { code?: unknown }).code === '503';
}

export interface SettlingOptions {
  /** Give up (and throw the last error) after this long. */
  withinMs?: number;
  /** What is being set up, for the log. */
  what: string;
}

const FIRST_PAUSE_MS = 500;
const LONGEST_PAUSE_MS = 5_000;

/** Runs `attempt` again while JetStream is settling, pausing longer each time; any other error is thrown at once. */
export async function untilJetStreamSettles<T>(attempt: () => Promise<T>, { withinMs = 120_000, what }: SettlingOptions): Promise<T> {
  const deadline = Date.now() + withinMs;
  let pauseMs = FIRST_PAUSE_MS;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!isJetStreamSettling(error) || Date.now() + pauseMs > deadline) throw error;
      new Logger('jetstream').warn({ what, reason: (error as Error).message, retryInMs: pauseMs }, 'JetStream is not ready yet; waiting');
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
      pauseMs = Math.min(pauseMs * 2, LONGEST_PAUSE_MS);
    }
  }
}
