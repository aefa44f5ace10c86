import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { ServiceFailure } from '@transmute/contracts';
import type { EngineProcess, EngineProcessEvents } from './engine-process';

export interface JsonLinesProcessSettings {
  /** Engine name for messages, e.g. `LibreOffice`. */
  label: string;
  /** The program, looked up for each start (after `prepare`). */
  command: string | (() => string);
  /** Decided afresh for each start (e.g. a new pipe name, so a restart never meets its predecessor's socket); a throw is a failed start. */
  launch: () => Launch | Promise<Launch>;
  env: NodeJS.ProcessEnv;
  /** Runs before each start (find the program, make its directories); a throw is a failed start. */
  prepare?: () => Promise<void>;
  /** How long the process has to print `{"ready": true}`. */
  startTimeoutMs: number;
  /** The message of a job the engine refused (`{"ok": false, "error"}`); a validation failure. */
  refusal(error: string): string;
}

/** One start of the process. */
export interface Launch {
  args: readonly string[];
  /** Files this start may leave behind when killed (its sockets); removed once it exits. */
  leftovers?: readonly string[];
  /** Variables of this start only, over `env` (e.g. its own temporary directory). */
  env?: NodeJS.ProcessEnv;
}

interface Pending {
  resolve: () => void;
  reject: (error: Error) => void;
}

interface Reply {
  ready?: boolean;
  id?: number;
  ok?: boolean;
  error?: string;
}

/**
 * An engine driven over JSON lines on stdin/stdout: it prints `{"ready": true}`
 * once up, then answers each `{"id", ...job}` with `{"id", "ok": true}` or
 * `{"id", "ok": false, "error"}`. It leads its own process group, so a kill
 * takes whatever it started (soffice.bin behind the UNO bridge) with it.
 * The LibreOffice bridge speaks it, and so can any other warm engine.
 */
export class JsonLinesProcess<Job extends object> implements EngineProcess<Job> {
  private child?: ChildProcessByStdio<Writable, Readable, Readable>;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stderrTail: string[] = [];
  private alive = false;
  /** Counts stops and kills: a start that sees it change while deciding its launch spawns nothing. */
  private stops = 0;

  constructor(
    private readonly settings: JsonLinesProcessSettings,
    private readonly events: EngineProcessEvents,
  ) {}

  get isAlive(): boolean {
    return this.alive;
  }

  get pid(): number | undefined {
    return this.alive ? this.child?.pid : undefined;
  }

  async start(): Promise<void> {
    const stopsBefore = this.stops;
    let launch: Launch;
    try {
      await this.settings.prepare?.();
      launch = await this.settings.launch();
    } catch (error) {
      throw ServiceFailure.unavailable(`${this.settings.label} could not start: ${(error as Error).message}`, error);
    }
    // A stop that came while the launch was decided found no process to end; the one it meant must not appear after it.
    if (this.stops !== stopsBefore) throw ServiceFailure.unavailable(`${this.settings.label} was stopped while starting`);
    const { command } = this.settings;
    const { args, leftovers = [] } = launch;
    const child = spawn(typeof command === 'string' ? command : command(), [...args], {
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
      env: { ...this.settings.env, ...launch.env },
    });
    this.child = child;
    // Writing to a process that just died raises EPIPE here; its exit handler fails the pending job.
    child.stdin.on('error', () => undefined);
    this.stderrTail = [];
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      this.stderrTail = [...this.stderrTail, ...text.split('\n').filter(Boolean)].slice(-5);
    });
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${this.settings.label} did not start within ${Math.round(this.settings.startTimeoutMs / 1000)} s`)),
        this.settings.startTimeoutMs,
      );
      createInterface({ input: child.stdout }).on('line', (line) => {
        const reply = parseReply(line);
        if (!reply) return;
        if (reply.ready) {
          clearTimeout(timer);
          if (this.child === child) this.alive = true;
          resolve();
          return;
        }
        this.settle(reply);
      });
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        // Before a restart can bind the same names.
        for (const path of leftovers) rmSync(path, { force: true });
        const current = this.child === child;
        const unexpected = current && this.alive;
        if (current) this.alive = false;
        const reason = `${this.settings.label} exited (${signal ?? `code ${code}`})${this.stderrTail.length ? `: ${this.stderrTail.join(' | ')}` : ''}`;
        reject(new Error(reason));
        if (!current) return;
        for (const waiter of this.pending.values()) waiter.reject(ServiceFailure.unavailable(reason));
        this.pending.clear();
        if (unexpected) this.events.onUnexpectedExit();
      });
    });
    try {
      await ready;
    } catch (error) {
      this.kill();
      throw ServiceFailure.unavailable(`${this.settings.label} could not start: ${(error as Error).message}`, error);
    }
  }

  run(job: Job, signal: AbortSignal): Promise<void> {
    const child = this.child;
    if (!child || !this.alive) return Promise.reject(ServiceFailure.unavailable(`${this.settings.label} is not running`));
    if (signal.aborted) return Promise.reject(ServiceFailure.unavailable(`the ${this.settings.label} conversion was cancelled`));
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      // A request cannot be withdrawn from the engine: cancelling kills the process (the supervisor restarts it).
      const onAbort = () => {
        this.pending.delete(id);
        this.kill();
        reject(ServiceFailure.unavailable(`${this.settings.label} was stopped: the conversion was cancelled`));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const done = () => signal.removeEventListener('abort', onAbort);
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
    this.stops += 1;
    this.alive = false;
    // Whoever killed it (time limit, cancel, stop) has settled its own job; these would otherwise wait forever.
    for (const waiter of this.pending.values()) waiter.reject(ServiceFailure.unavailable(`${this.settings.label} was killed`));
    this.pending.clear();
    const pid = this.child?.pid;
    if (!pid) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) {
      // No child to kill; counted all the same, so a start still deciding its launch spawns nothing.
      this.stops += 1;
      this.alive = false;
      return;
    }
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    this.kill();
    await exited;
  }

  private settle(reply: Reply): void {
    const waiter = reply.id === undefined ? undefined : this.pending.get(reply.id);
    if (!waiter) return;
    this.pending.delete(reply.id!);
    if (reply.ok) waiter.resolve();
    else waiter.reject(ServiceFailure.validation(this.settings.refusal(reply.error ?? 'unknown error')));
  }
}

function parseReply(line: string): Reply | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}
