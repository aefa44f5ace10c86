import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { Logger } from '@nestjs/common';
import { ServiceFailure } from '@transmute/contracts';
import { OFFICE_BRIDGE_SOURCE } from './office-bridge-source';

/** What the document family asks one warm LibreOffice to do. */
export interface OfficeJob {
  input: string;
  output: string;
  /** Import filter; forcing it keeps a corrupt .docx from being opened as plain text. */
  importFilter?: string;
  importOptions?: string;
  /** Export filter name, e.g. `writer_pdf_Export`. */
  filter: string;
  filterOptions?: string;
  filterData?: Record<string, string | number | boolean>;
}

interface Pending {
  resolve: () => void;
  reject: (error: Error) => void;
}

const START_TIMEOUT_MS = 90_000;

/**
 * One long-running LibreOffice with its own user profile (two processes on
 * one profile silently lose files), driven over UNO by a small Python bridge
 * that speaks JSON lines on stdin/stdout. The bridge leads its own process
 * group, so killing the group takes soffice.bin with it.
 */
export class OfficeInstance {
  private readonly logger = new Logger(OfficeInstance.name);
  private child?: ChildProcessByStdio<Writable, Readable, Readable>;
  private pending = new Map<number, Pending>();
  private nextId = 1;
  private stderrTail: string[] = [];
  private alive = false;
  /** Conversions served since this process started. */
  served = 0;

  constructor(
    readonly slot: number,
    private readonly settings: {
      python: string;
      soffice: string;
      profileDir: string;
      env: NodeJS.ProcessEnv;
      /** Called when a started process dies without being told to (crash, OOM kill). */
      onUnexpectedExit?: (instance: OfficeInstance) => void;
    },
  ) {}

  get isAlive(): boolean {
    return this.alive;
  }

  async start(): Promise<void> {
    const pipeName = `transmute-office-${process.pid}-${this.slot}-${Date.now()}`;
    const child = spawn(
      this.settings.python,
      ['-c', OFFICE_BRIDGE_SOURCE, this.settings.soffice, pathToFileURL(this.settings.profileDir).href, pipeName],
      { detached: true, stdio: ['pipe', 'pipe', 'pipe'], shell: false, env: this.settings.env },
    );
    this.child = child;
    this.served = 0;
    // Writing to a bridge that just died raises EPIPE here; its exit handler fails the pending job.
    child.stdin.on('error', () => undefined);
    this.stderrTail = [];
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      this.stderrTail = [...this.stderrTail, ...text.split('\n').filter(Boolean)].slice(-5);
    });
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('LibreOffice did not start within 90 s')), START_TIMEOUT_MS);
      createInterface({ input: child.stdout }).on('line', (line) => {
        let message: { ready?: boolean; id?: number; ok?: boolean; error?: string };
        try {
          message = JSON.parse(line) as typeof message;
        } catch {
          return;
        }
        if (message.ready) {
          clearTimeout(timer);
          this.alive = true;
          resolve();
          return;
        }
        const waiter = message.id === undefined ? undefined : this.pending.get(message.id);
        if (!waiter) return;
        this.pending.delete(message.id!);
        if (message.ok) waiter.resolve();
        else waiter.reject(ServiceFailure.validation(`LibreOffice could not convert the file: ${message.error ?? 'unknown error'}`));
      });
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        const unexpected = this.alive;
        this.alive = false;
        const reason = `LibreOffice slot ${this.slot} exited (${signal ?? `code ${code}`})${this.stderrTail.length ? `: ${this.stderrTail.join(' | ')}` : ''}`;
        reject(new Error(reason));
        for (const waiter of this.pending.values()) waiter.reject(ServiceFailure.unavailable(reason));
        this.pending.clear();
        if (unexpected && this.child === child) {
          this.logger.warn({ slot: this.slot, reason }, 'LibreOffice exited unexpectedly');
          this.settings.onUnexpectedExit?.(this);
        }
      });
    });
    try {
      await ready;
    } catch (error) {
      this.kill();
      throw ServiceFailure.unavailable(`the LibreOffice pool could not start: ${(error as Error).message}`, error);
    }
  }

  /** Runs one job; on timeout or abort the whole process is killed (a UNO call cannot be cancelled). */
  convert(job: OfficeJob, timeoutMs: number, signal: AbortSignal): Promise<void> {
    const child = this.child;
    if (!child || !this.alive) return Promise.reject(ServiceFailure.unavailable('LibreOffice is not running'));
    const id = this.nextId++;
    this.served += 1;
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      const timer = setTimeout(() => {
        this.pending.delete(id);
        done();
        this.logger.warn({ slot: this.slot }, 'LibreOffice conversion timed out; restarting the process');
        this.kill();
        reject(ServiceFailure.validation(`LibreOffice did not finish within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      const onAbort = () => {
        this.pending.delete(id);
        done();
        this.kill();
        reject(ServiceFailure.unavailable('LibreOffice was stopped: the conversion was cancelled'));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: () => {
          done();
          resolve();
        },
        reject: (error) => {
          done();
          reject(error);
        },
      });
      child.stdin.write(`${JSON.stringify({ id, ...job })}\n`);
    });
  }

  kill(): void {
    this.alive = false;
    const pid = this.child?.pid;
    if (!pid) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }

  /** Resolves once the bridge's process has exited (or at once if it has). */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    this.kill();
    await exited;
  }
}
