import { execFileSync } from 'node:child_process';
import { type Socket, connect } from 'node:net';

/** What happened to one raw connection: when it ended and what the server answered first, if anything. */
export interface ConnectionEnd {
  afterMs: number;
  statusLine: string;
}

/**
 * A raw loopback connection that writes what the test says, when it says,
 * and records how the server ended it (abusive clients need byte-level
 * control that fetch does not give).
 */
export class RawConnection {
  readonly ended: Promise<ConnectionEnd>;
  private readonly socket: Socket;
  private readonly openedAt = Date.now();
  private received = '';

  constructor(url: string) {
    const { hostname, port } = new URL(url);
    this.socket = connect({ host: hostname, port: Number(port) });
    this.socket.on('data', (chunk: Buffer) => {
      if (this.received.length < 4_096) this.received += chunk.toString('latin1');
    });
    this.ended = new Promise((resolve) => {
      const done = () => resolve({ afterMs: Date.now() - this.openedAt, statusLine: this.received.split('\r\n')[0] ?? '' });
      this.socket.on('close', done);
      // A reset while we write (the server gave up on us) ends it too; 'close' follows.
      this.socket.on('error', () => undefined);
    });
  }

  get open(): boolean {
    return !this.socket.destroyed && this.socket.readyState === 'open';
  }

  write(text: string | Buffer): void {
    if (!this.socket.destroyed) this.socket.write(text);
  }

  /** Writes `text` one byte every `intervalMs` until the connection ends or the text is out. */
  async dribble(text: string, intervalMs: number): Promise<void> {
    for (const character of text) {
      if (this.socket.destroyed) return;
      this.write(character);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** Raises a process's open-file limit to its hard limit (prlimit, util-linux); returns the soft limit now in force. */
export function raiseOpenFileLimit(pid: number): number {
  const read = () =>
    Number(
      execFileSync('prlimit', ['--pid', String(pid), '--nofile', '--raw', '--noheadings', '--output', 'SOFT,HARD'], { encoding: 'utf8' })
        .trim()
        .split(/\s+/)[0],
    );
  const hard = execFileSync('prlimit', ['--pid', String(pid), '--nofile', '--raw', '--noheadings', '--output', 'HARD'], { encoding: 'utf8' }).trim();
  execFileSync('prlimit', ['--pid', String(pid), `--nofile=${hard}:${hard}`]);
  return read();
}
