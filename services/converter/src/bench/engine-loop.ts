import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { FAMILIES } from '../families/registry';
import type { ConverterFamily } from '../families/family';
import { assertProduced } from '../work/conversion-guards';
import { writeTenPageDocx } from './ten-page-docx';

/**
 * The raw engine loop of bench:throughput: one family's own `convert` (the
 * code a converter process runs, same environment variables, e.g. the office
 * pool size) called in a loop, with C conversions at a time as a converter
 * with C worker slots runs them, and nothing of the platform around it.
 *
 *   node dist/bench/engine-loop.js run --family image --input a.png --to jpg --jobs 200 --concurrency 1,2
 *   node dist/bench/engine-loop.js docx <dir>     # writes the 10-page DOCX, prints its path
 *
 * `run` prints one JSON line (EngineLoopReport) and exits 0 even when some
 * conversions failed: the caller counts them.
 */
export interface EngineLoopRun {
  concurrency: number;
  wallMs: number;
  /** Milliseconds per successful conversion (the family's convert call alone). */
  durationsMs: number[];
  errors: string[];
  /**
   * This process's CPU over the run, every thread's (an in-process engine's
   * work, sharp's included); not that of engine processes a family spawns.
   */
  cpuMs: number;
}

export interface EngineLoopReport {
  family: string;
  engineVersion: string;
  runs: EngineLoopRun[];
}

const CONVERSION_TIMEOUT_MS = 120_000;

async function convertOnce(family: ConverterFamily, input: string, to: string, scratchRoot: string): Promise<number> {
  const scratch = await mkdtemp(join(scratchRoot, 'task-'));
  try {
    const outputPath = join(scratch, `output.${to}`);
    const began = performance.now();
    await family.convert({
      inputPath: input,
      outputPath,
      inputFormat: extname(input).slice(1),
      outputFormat: to,
      options: {},
      signal: AbortSignal.timeout(CONVERSION_TIMEOUT_MS),
      reportProgress: () => undefined,
    });
    const took = performance.now() - began;
    await assertProduced(outputPath, to);
    return took;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function loop(family: ConverterFamily, input: string, to: string, jobs: number, concurrency: number, deadline: number, scratchRoot: string): Promise<EngineLoopRun> {
  const durationsMs: number[] = [];
  const errors: string[] = [];
  let next = 0;
  const began = performance.now();
  const cpuBefore = process.cpuUsage();
  const worker = async (): Promise<void> => {
    while (next < jobs && Date.now() < deadline) {
      next++;
      try {
        durationsMs.push(await convertOnce(family, input, to, scratchRoot));
      } catch (error) {
        errors.push((error as Error).message.split('\n')[0] ?? String(error));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs) }, worker));
  const cpu = process.cpuUsage(cpuBefore);
  return { concurrency, wallMs: performance.now() - began, durationsMs, errors, cpuMs: (cpu.user + cpu.system) / 1000 };
}

async function run(argv: string[]): Promise<EngineLoopReport> {
  const { values } = parseArgs({
    args: argv,
    options: {
      family: { type: 'string' },
      input: { type: 'string' },
      to: { type: 'string' },
      jobs: { type: 'string', default: '100' },
      concurrency: { type: 'string', default: '1' },
      'max-seconds': { type: 'string', default: '300' },
    },
    strict: true,
  });
  const make = FAMILIES[values.family ?? ''];
  if (!make || !values.input || !values.to)
    throw new Error(`usage: run --family <${Object.keys(FAMILIES).join('|')}> --input FILE --to FORMAT [--jobs N] [--concurrency 1,2] [--max-seconds S]`);
  const jobs = Number(values.jobs);
  const levels = values.concurrency.split(',').map(Number);
  if (!Number.isInteger(jobs) || jobs < 1 || levels.some((level) => !Number.isInteger(level) || level < 1)) throw new Error('--jobs and --concurrency take positive integers');
  const deadline = Date.now() + Number(values['max-seconds']) * 1000;

  const family = make();
  const scratchRoot = await mkdtemp(join(tmpdir(), 'transmute-engine-loop-'));
  try {
    await family.start?.();
    // Untimed: the first conversion pays for loading codecs or a document filter.
    await convertOnce(family, values.input, values.to, scratchRoot);
    const runs: EngineLoopRun[] = [];
    for (const concurrency of levels) runs.push(await loop(family, values.input, values.to, jobs, concurrency, deadline, scratchRoot));
    return { family: family.name, engineVersion: family.engineVersion, runs };
  } finally {
    await family.stop?.();
    await rm(scratchRoot, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'run') {
    process.stdout.write(`${JSON.stringify(await run(rest))}\n`);
  } else if (command === 'docx' && rest[0]) {
    process.stdout.write(`${JSON.stringify({ path: await writeTenPageDocx(rest[0], AbortSignal.timeout(60_000)) })}\n`);
  } else {
    throw new Error('usage: engine-loop.js run ... | engine-loop.js docx <dir>');
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`engine-loop: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
