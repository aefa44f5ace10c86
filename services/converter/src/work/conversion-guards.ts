import { stat } from 'node:fs/promises';
import { ServiceFailure } from '@transmute/contracts';

/**
 * Runs a conversion under a deadline: its signal aborts (killing engine
 * processes through runEngine) when the deadline passes or the task is
 * released, and the caller gets a clear failure at the deadline even if the
 * family's engine cannot be interrupted (in-process libvips).
 */
export async function withTimeLimit<T>(timeoutMs: number, released: AbortSignal, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([released, deadline]);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () =>
      reject(
        deadline.aborted && !released.aborted
          ? ServiceFailure.validation(`the conversion did not finish within the time limit of ${Math.round(timeoutMs / 1000)} s`)
          : ServiceFailure.unavailable('the conversion was cancelled'),
      );
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([run(signal), aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort!);
  }
}

/** An engine that exits 0 without writing (LibreOffice on an unreadable input does) has failed. */
export async function assertProduced(path: string, format: string): Promise<void> {
  const size = await stat(path).then(
    (info) => (info.isFile() ? info.size : 0),
    () => 0,
  );
  if (size === 0) throw ServiceFailure.validation(`the conversion produced no ${format} file; the input may be damaged or not what its name says`);
}
