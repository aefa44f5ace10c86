/**
 * A jest reporter that names what still holds jest open once every suite has
 * run. On two cores jest runs all suites in its own process, so one socket,
 * child or timer a suite forgets keeps the whole run from exiting; run-tests
 * then kills it a minute later and counts a failed `jest-exit`. Without this,
 * that failure says only that something leaked.
 *
 * Timers are no handles Node lists, so the reporter wraps the global
 * setTimeout and setInterval, which jest's node environment hands to every
 * suite, and keeps where each live timer was made. The trace is captured
 * unformatted, which costs a few microseconds per timer.
 *
 * With more than one jest worker, suites run in workers this process cannot
 * see; jest kills those workers itself.
 */

/** Long enough for jest's own teardown, well inside run-tests' minute. */
const REPORT_AFTER_MS = 5_000;
/** Finished timers are dropped from the record each time it grows by this many. */
const PRUNE_EVERY = 10_000;

interface NodeTimer {
  hasRef(): boolean;
  _destroyed?: boolean;
}

interface TimerRecord {
  timer: NodeTimer;
  repeats: boolean;
  where: { stack?: string };
}

const timers = new Set<TimerRecord>();
let addedSincePrune = 0;

/** `madeBy` is the wrapper, left out of the trace with everything it called. */
function record(timer: NodeTimer, repeats: boolean, madeBy: (...args: never[]) => unknown): void {
  const where: { stack?: string } = {};
  Error.captureStackTrace(where, madeBy);
  timers.add({ timer, repeats, where });
  if (++addedSincePrune >= PRUNE_EVERY) {
    addedSincePrune = 0;
    for (const entry of timers) if (entry.timer._destroyed) timers.delete(entry);
  }
}

function trackTimers(): void {
  const { setTimeout: originalTimeout, setInterval: originalInterval } = globalThis;
  const wrappedTimeout = (...args: Parameters<typeof setTimeout>) => {
    const timer = originalTimeout(...args);
    record(timer, false, wrappedTimeout);
    return timer;
  };
  const wrappedInterval = (...args: Parameters<typeof setInterval>) => {
    const timer = originalInterval(...args);
    record(timer, true, wrappedInterval);
    return timer;
  };
  // util.promisify(setTimeout) and friends read this symbol.
  Object.assign(wrappedTimeout, originalTimeout);
  Object.assign(wrappedInterval, originalInterval);
  globalThis.setTimeout = wrappedTimeout as typeof setTimeout;
  globalThis.setInterval = wrappedInterval;
}

function describeHandle(handle: unknown): string | undefined {
  const name = (handle as object).constructor?.name ?? typeof handle;
  const socket = handle as { fd?: number; remoteAddress?: string; remotePort?: number; localPort?: number; _handle?: object };
  if (name === 'Socket' || name === 'TLSSocket') {
    if (socket.fd !== undefined && socket.fd <= 2) return undefined; // jest's own stdin, stdout and stderr
    if (socket.remoteAddress) return `${name} ${socket.localPort} -> ${socket.remoteAddress}:${socket.remotePort}`;
    return `${name} (${socket._handle?.constructor.name ?? 'closed'})`;
  }
  if (name === 'ChildProcess') {
    const child = handle as { pid?: number; spawnargs: string[] };
    return `child process ${child.pid}: ${child.spawnargs.join(' ')}`;
  }
  const server = handle as { address?: () => unknown };
  if (typeof server.address === 'function') return `${name} listening on ${JSON.stringify(server.address())}`;
  return name;
}

/** One line per handle or live timer that keeps this process running. */
export function openHandles(): string[] {
  const lines = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles().flatMap((handle) => {
    const line = describeHandle(handle);
    return line === undefined ? [] : [`  ${line}`];
  });
  for (const { timer, repeats, where } of timers) {
    if (timer._destroyed || !timer.hasRef()) continue;
    const frames = (where.stack ?? '').split('\n').slice(1, 9).join('\n');
    lines.push(`  ${repeats ? 'setInterval' : 'setTimeout'}, made\n${frames}`);
  }
  return lines;
}

function printOpenHandles(): void {
  const lines = openHandles();
  console.error(`\njest is still running ${REPORT_AFTER_MS / 1000} s after its last suite; what holds it open:\n${lines.join('\n') || '  nothing this reporter can see'}`);
  console.error(`  (Node's count of active resources: ${process.getActiveResourcesInfo().join(', ')})`);
}

export default class OpenHandlesReporter {
  constructor() {
    trackTimers();
  }

  onRunComplete(): void {
    setTimeout(printOpenHandles, REPORT_AFTER_MS).unref();
  }
}
