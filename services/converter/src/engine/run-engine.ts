import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { ErrorCode, ServiceFailure } from '@transmute/contracts';
import { resolveCommand } from './resolve-command';
import { engineLimits } from './engine-limits';
import { TailBuffer, LineSplitter } from './output-buffers';

export interface RunEngineOptions {
  /** A program name (looked up on PATH) or an absolute path. Never a shell line. */
  command: string;
  args: readonly string[];
  cwd?: string;
  /** Extra variables; the engine gets the process environment without any TRANSMUTE_* variable, plus these. */
  env?: Readonly<Record<string, string>>;
  /** Wall-clock limit; capped by TRANSMUTE_CONVERT_TIMEOUT_MS. */
  timeoutMs: number;
  /**
   * Address-space ceiling in MiB (RLIMIT_AS through `prlimit`). Absent: TRANSMUTE_CONVERT_MEMORY_MB.
   * 0: none, for engines that reserve large virtual ranges they never touch (Chromium, the JVM, LibreOffice).
   */
  memoryLimitMb?: number;
  /** Write the engine's stdout to this file instead of keeping it (engines that only write to stdout). */
  stdoutFile?: string;
  /** Aborting kills the engine's whole process group. */
  signal: AbortSignal;
  /** Called per line of output; `\r` also ends a line (ffmpeg redraws its progress with it). */
  onStdoutLine?: (line: string) => void;
  onStderrLine?: (line: string) => void;
}

export interface EngineOutput {
  stdout: string;
  stderr: string;
}

/** Keep this much of each stream; engines can be chatty, and only the tail explains a failure. */
const STDOUT_KEEP_BYTES = 8 * 1024 * 1024;
const STDERR_KEEP_BYTES = 256 * 1024;
const FAILURE_TAIL_LINES = 6;
const KILL_GRACE_MS = 2_000;

/** Runs one engine process without a shell, inside a time limit and a memory ceiling. */
export async function runEngine(options: RunEngineOptions): Promise<EngineOutput> {
  const engine = options.command.split('/').pop() ?? options.command;
  if (options.signal.aborted) throw abortedFailure(engine, options.signal);
  const executable = await resolveCommand(options.command);
  if (!executable) {
    throw ServiceFailure.unavailable(`the ${engine} engine is not installed on this converter (not found on PATH)`);
  }
  const limits = engineLimits();
  const timeoutMs = Math.max(1, Math.min(options.timeoutMs, limits.timeoutMs));
  const memoryMb = options.memoryLimitMb ?? limits.memoryLimitMb;
  const [file, argv] = memoryMb > 0 ? ['prlimit', [`--as=${memoryMb * 1024 * 1024}`, '--', executable, ...options.args]] : [executable, [...options.args]];

  return new Promise<EngineOutput>((resolve, reject) => {
    const child = spawn(file, argv, {
      cwd: options.cwd,
      env: engineEnvironment(options.env),
      // Own process group, so a timeout also kills what the engine spawned (soffice.bin, gs children...).
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: false,
    });
    const stdout = new TailBuffer(STDOUT_KEEP_BYTES);
    const stderr = new TailBuffer(STDERR_KEEP_BYTES);
    const stdoutLines = new LineSplitter(options.onStdoutLine);
    const stderrLines = new LineSplitter(options.onStderrLine);
    let stopReason: 'timeout' | 'abort' | undefined;
    let killTimer: NodeJS.Timeout | undefined;

    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    };
    const stop = (reason: 'timeout' | 'abort') => {
      if (stopReason) return;
      stopReason = reason;
      killGroup('SIGTERM');
      killTimer = setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS);
    };
    const timer = setTimeout(() => stop('timeout'), timeoutMs);
    const onAbort = () => stop('abort');
    options.signal.addEventListener('abort', onAbort, { once: true });

    const stdoutWritten = options.stdoutFile ? pipeline(child.stdout, createWriteStream(options.stdoutFile)) : undefined;
    // Settled below; a failed write also shows up as an engine failure.
    stdoutWritten?.catch(() => undefined);
    if (!stdoutWritten) {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout.push(chunk);
        stdoutLines.push(chunk);
      });
    }
    child.stderr.on('data', (chunk: Buffer) => {
      stderr.push(chunk);
      stderrLines.push(chunk);
    });

    const finish = () => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      stdoutLines.end();
      stderrLines.end();
    };
    child.on('error', (error) => {
      finish();
      clearTimeout(killTimer);
      reject(ServiceFailure.unavailable(`the ${engine} engine could not be started: ${error.message}`, error));
    });
    // The handler awaits the output stream; `void` says nothing waits for it, and every path inside settles the promise.
    child.on(
      'close',
      (code, signal) =>
        void (async () => {
          finish();
          const writeError = await stdoutWritten?.then(
            () => undefined,
            (error: Error) => error,
          );
          // Reap anything the engine left behind in its group.
          killGroup('SIGKILL');
          clearTimeout(killTimer);
          const output = { stdout: stdout.text(), stderr: stderr.text() };
          if (stopReason === 'abort') return reject(abortedFailure(engine, options.signal));
          if (stopReason === 'timeout') {
            return reject(ServiceFailure.validation(`${engine} did not finish within the time limit of ${Math.round(timeoutMs / 1000)} s`));
          }
          if (code === 0 && writeError) {
            return reject(ServiceFailure.unavailable(`could not store what ${engine} wrote: ${writeError.message}`, writeError));
          }
          if (code === 0) return resolve(output);
          const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
          // A process out of address space usually aborts or segfaults: say that a ceiling was in force.
          const memoryHint = signal && memoryMb > 0 ? ` (it ran under a ${memoryMb} MB memory ceiling)` : '';
          const tail = lastLines(output.stderr || output.stdout, FAILURE_TAIL_LINES);
          reject(
            new ServiceFailure(ErrorCode.VALIDATION_FAILED, `${engine} ${how}${memoryHint}${tail ? `: ${tail}` : ''}`, false, {
              cause: { command: engine, args: options.args, code, signal },
            }),
          );
        })(),
    );
  });
}

function abortedFailure(engine: string, signal: AbortSignal): ServiceFailure {
  // A TimeoutError reason is the per-conversion deadline; anything else is a shutdown releasing the task.
  if ((signal.reason as Error | undefined)?.name === 'TimeoutError') {
    return ServiceFailure.validation(`${engine} did not finish within the conversion time limit`);
  }
  return ServiceFailure.unavailable(`${engine} was stopped: the conversion was cancelled`);
}

/**
 * The converter's environment minus its own configuration (which holds
 * secrets) and minus the glibc allocator tuning made for its Node process
 * (MALLOC_*, see docs/decisions.md): an engine keeps glibc's defaults, which
 * its authors tuned for. Plus the engine's variables.
 */
export function engineEnvironment(extra?: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('TRANSMUTE_') && !key.startsWith('MALLOC_')) env[key] = value;
  return { ...env, ...extra };
}

function lastLines(text: string, count: number): string {
  return text
    .split(/[\r\n]+/)
    .map((line) => line.trim())
    .filter(Boolean)
    .slice(-count)
    .join(' | ')
    .slice(-1_000);
}
