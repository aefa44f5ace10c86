import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { reapOnExit } from './child-reaper';
import { LineTail } from './line-tail';

/** Where a child's stdout and stderr go. A tail of both is always kept in memory. */
export type OutputSink =
  | { kind: 'file'; path: string }
  /** Forwarded to this process's stdout/stderr, each line prefixed with the process name. */
  | { kind: 'inherit' }
  /** Kept only in the in-memory tail (infrastructure we only need to explain failures). */
  | { kind: 'tail-only' };

export interface SpawnOptions {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  output: OutputSink;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** How many of its last output lines a process keeps. */
export const OUTPUT_TAIL_LINES = 200;

export class ManagedProcess {
  readonly exited: Promise<ExitInfo>;
  private exitInfo: ExitInfo | undefined;
  private readonly tail = new LineTail(OUTPUT_TAIL_LINES);
  private readonly child: ChildProcess;
  private readonly logFile: WriteStream | undefined;
  private forwardedLineOpen = false;

  constructor(private readonly options: SpawnOptions) {
    // detached: false keeps children in our process group, so a Ctrl-C in the
    // terminal reaches them too; reapOnExit covers every other way we end.
    this.child = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      detached: false,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    reapOnExit(this.child);
    this.logFile = options.output.kind === 'file' ? createWriteStream(options.output.path, { flags: 'a' }) : undefined;
    this.logFile?.write(`--- ${options.name} started at ${new Date().toISOString()} (pid ${this.child.pid ?? '?'}) ---\n`);
    this.child.stdout?.on('data', (chunk: Buffer) => this.onOutput(chunk, process.stdout));
    this.child.stderr?.on('data', (chunk: Buffer) => this.onOutput(chunk, process.stderr));
    this.exited = new Promise((resolve) => {
      // 'close' (not 'exit') so the last output is captured before we report.
      this.child.once('close', (code, signal) => {
        this.exitInfo = { code, signal };
        this.logFile?.end(`--- ${options.name} exited (code ${code}, signal ${signal}) ---\n`);
        resolve(this.exitInfo);
      });
      // A spawn failure (ENOENT, EACCES) emits 'error' and then 'close'.
      this.child.once('error', (error) => this.tail.push(`spawn error: ${error.message}\n`));
    });
  }

  get name(): string {
    return this.options.name;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get hasExited(): boolean {
    return this.exitInfo !== undefined;
  }

  /** The last lines the process wrote to stdout or stderr. */
  outputTail(lines: number): string {
    return this.tail.last(lines).join('\n');
  }

  /** Throws when the process has already exited; used to fail waits early. */
  assertRunning(): void {
    if (this.exitInfo === undefined) return;
    const { code, signal } = this.exitInfo;
    throw new Error(`${this.name} exited early (code ${code}, signal ${signal})`);
  }

  signal(signal: NodeJS.Signals): void {
    if (!this.hasExited) this.child.kill(signal);
  }

  /** SIGTERM, then SIGKILL when it has not exited after graceMs. Resolves once it is gone. */
  async stop(graceMs: number): Promise<ExitInfo> {
    if (this.exitInfo) return this.exitInfo;
    this.signal('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), graceMs);
    });
    const first = await Promise.race([this.exited, graceOver]);
    clearTimeout(timer);
    if (first === 'timeout') this.signal('SIGKILL');
    return this.exited;
  }

  private onOutput(chunk: Buffer, parentStream: NodeJS.WriteStream): void {
    const text = chunk.toString('utf8');
    this.tail.push(text);
    if (this.logFile) this.logFile.write(chunk);
    else if (this.options.output.kind === 'inherit') this.forward(text, parentStream);
  }

  /** Prefixes every new line with the process name; chunks may split lines anywhere. */
  private forward(text: string, parentStream: NodeJS.WriteStream): void {
    const prefix = `[${this.name}] `;
    const body = text.replace(/\n(?=.)/g, `\n${prefix}`);
    parentStream.write(this.forwardedLineOpen ? body : prefix + body);
    this.forwardedLineOpen = !text.endsWith('\n');
  }
}
