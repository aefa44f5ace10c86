import { connect } from 'node:net';
import { LOOPBACK } from './free-ports';

/** Whether something accepts TCP connections on the loopback port right now. */
export function isAcceptingConnections(port: number, host: string = LOOPBACK): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (accepting: boolean): void => {
      socket.destroy();
      resolve(accepting);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export interface WaitForTcpOptions {
  timeoutMs: number;
  /** Called between attempts; throwing stops the wait (e.g. the process already exited). */
  check?: () => void;
}

/** Polls until the port accepts a connection, or rejects after timeoutMs. */
export async function waitForTcp(port: number, options: WaitForTcpOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    options.check?.();
    if (await isAcceptingConnections(port)) return;
    if (Date.now() >= deadline) throw new Error(`nothing accepted connections on ${LOOPBACK}:${port} within ${options.timeoutMs} ms`);
    await delay(100);
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
