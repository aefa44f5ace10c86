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
 * crash. It refuses to start while the file named by its second argument exists.
 */
const FAKE_ENGINE_SOURCE = String.raw`
const fs = require('node:fs');
const readline = require('node:readline');
const [startDelayMs, failStartFile] = process.argv.slice(2);
if (failStartFile && fs.existsSync(failStartFile)) {
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

export function fakeEngineFactory(script: string, options: { startDelayMs?: number; failStartFile: string }): EngineProcessFactory<FakeJob> {
  return (_slot, events) =>
    new JsonLinesProcess<FakeJob>(
      {
        label: 'FakeEngine',
        command: process.execPath,
        args: () => [script, String(options.startDelayMs ?? 20), options.failStartFile],
        env: { PATH: process.env.PATH },
        startTimeoutMs: 5_000,
        refusal: (error) => `FakeEngine could not convert the file: ${error}`,
      },
      events,
    );
}
