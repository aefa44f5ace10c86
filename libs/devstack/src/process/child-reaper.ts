import type { ChildProcess } from 'node:child_process';

/**
 * Children that are still running. When this Node process exits for any
 * reason that runs 'exit' handlers (normal end, process.exit, an uncaught
 * error), they get SIGKILL synchronously, so neither a failed test run nor a
 * crashed `make up` leaves a nats-server, ferretdb or service behind.
 */
const running = new Set<ChildProcess>();
let hooked = false;

export function reapOnExit(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (!hooked) {
    hooked = true;
    process.once('exit', killAllSync);
  }
}

function killAllSync(): void {
  for (const child of running) {
    try {
      child.kill('SIGKILL');
    } catch {
      // Already gone; nothing to clean up.
    }
  }
}
