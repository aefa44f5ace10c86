import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EngineProcessFactory } from './engine-process';
import { JsonLinesProcess } from './json-lines-process';

/** What the fake engine does with one job. */
export interface FakeJob {
  action: 'ok' | 'refuse' | 'hang' | 'crash';
  sleepMs?: number;
}

/**
 * A tiny node program that speaks the JSON-lines engine protocol, so the
 * supervisor is tested against real processes that start, answer, hang and
 * crash. It refuses to start while the file named by its second argument exists
 * (every time when it is empty, that many times when it holds a number).
 */
const FAKE_ENGINE_SOURCE = String.raw`
const fs = require('node:fs');
const readline = require('node:readline');
const [startDelayMs, failStartFile] = process.argv.slice(2);
if (failStartFile && fs.existsSync(failStartFile)) {
  // Empty: refuse every start. A number N: refuse N more starts.
  const left = fs.readFileSync(failStartFile, 'utf8').trim();
  if (left !== '') {
    if (Number(left) <= 1) fs.unlinkSync(failStartFile);
    else fs.writeFileSync(failStartFile, String(Number(left) - 1));
  }
  process.stderr.write('refusing to start\n');
  process.exit(2);
}
setTimeout(() => {
  process.stdout.write(JSON.stringify({ ready: true }) + '\n');
  readline.createInterface({ input: process.stdin }).on('line', (line) => {
    const job = JSON.parse(line);
    setTimeout(() => {
      if (job.action === 'crash') process.exit(9);
      if (job.action === 'hang') return;
      const reply = job.action === 'refuse' ? { id: job.id, ok: false, error: 'cannot read this' } : { id: job.id, ok: true };
      process.stdout.write(JSON.stringify(reply) + '\n');
    }, job.sleepMs || 0);
  });
}, Number(startDelayMs));
`;

export async function writeFakeEngine(dir: string): Promise<string> {
  const path = join(dir, 'fake-engine.js');
  await writeFile(path, FAKE_ENGINE_SOURCE);
  return path;
}

export interface FakeEngineOptions {
  startDelayMs?: number;
  /** Per slot when it is a function of the slot. */
  failStartFile: string | ((slot: number) => string);
  /** Runs before each start, as finding the program and making its directories would. */
  prepare?: () => Promise<void>;
  /** Told each time a process is spawned. */
  onSpawn?: () => void;
}

export function fakeEngineFactory(script: string, options: FakeEngineOptions): EngineProcessFactory<FakeJob> {
  const failStartFile = (slot: number) => (typeof options.failStartFile === 'string' ? options.failStartFile : options.failStartFile(slot));
  return (slot, events) =>
    new JsonLinesProcess<FakeJob>(
      {
        label: 'FakeEngine',
        command: () => {
          options.onSpawn?.();
          return process.execPath;
        },
        prepare: options.prepare,
        launch: () => ({ args: [script, String(options.startDelayMs ?? 20), failStartFile(slot)] }),
        env: { PATH: process.env.PATH },
        startTimeoutMs: 5_000,
        refusal: (error) => `FakeEngine could not convert the file: ${error}`,
      },
      events,
    );
}
