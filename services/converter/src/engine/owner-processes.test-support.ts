import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';

/* Real processes to own left-behind files in the specs: one that has exited, one still running. */

/** The pid of a process that ran and has exited. */
export async function exitedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  return child.pid!;
}

/** A process that runs until the caller kills it. */
export function runningProcess(): ChildProcess & { pid: number } {
  return spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }) as ChildProcess & { pid: number };
}
