import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '@transmute/devstack';

/** The converter's engine-loop CLI (services/converter/src/bench/engine-loop.ts), run as its own process like a converter. */
const script = () => join(repoRoot(), 'services', 'converter', 'dist', 'bench', 'engine-loop.js');

/** Mirrors EngineLoopReport of the converter's CLI (the e2e package does not import service code). */
export interface EngineLoopReport {
  family: string;
  engineVersion: string;
  /** cpuMs: the loop process's own CPU over the run (in-process engines only). */
  runs: Array<{ concurrency: number; wallMs: number; durationsMs: number[]; errors: string[]; cpuMs: number }>;
}

async function runCli(args: string[], timeoutMs: number): Promise<string> {
  if (!existsSync(script())) throw new Error(`not built: ${script()}: run pnpm build`);
  const { stdout } = await promisify(execFile)(process.execPath, [script(), ...args], { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  // The report is the last line; a family's engine may log before it (the office pool does).
  return stdout.trimEnd().split('\n').pop() ?? '';
}

export interface EngineLoopRequest {
  family: string;
  input: string;
  to: string;
  jobs: number;
  concurrency: number[];
  maxSeconds: number;
}

export async function runEngineLoop(request: EngineLoopRequest): Promise<EngineLoopReport> {
  const args = ['run', '--family', request.family, '--input', request.input, '--to', request.to, '--jobs', String(request.jobs)];
  args.push('--concurrency', request.concurrency.join(','), '--max-seconds', String(request.maxSeconds));
  // The CLI stops itself at max-seconds; the margin covers the engine's start (the office pool) and stop.
  return JSON.parse(await runCli(args, (request.maxSeconds + 120) * 1000)) as EngineLoopReport;
}

/** The 10-page DOCX of bench:document, written into `dir`: where it is and what it holds. */
export async function writeBenchDocx(dir: string): Promise<{ path: string; bytes: Buffer }> {
  const { path } = JSON.parse(await runCli(['docx', dir], 90_000)) as { path: string };
  return { path, bytes: await readFile(path) };
}
