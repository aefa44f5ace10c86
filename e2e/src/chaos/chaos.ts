/**
 * `pnpm chaos`: a fault-injection run under load, on loopback only.
 *
 *   node e2e/dist/chaos/chaos.js [--jobs N (1000)] [--concurrency N (16)]
 *     [--faults gateway,job-orchestrator,...|all|none] [--down-ms MS (2000)]
 *     [--job-timeout-s S (300)] [--drain-s S (300)] [--time-limit-s S (3600)]
 *
 * Starts its own NATS, FerretDB and platform (image, audio, document and
 * archive converters), runs N mixed jobs (imports by upload, base64 and url
 * from a loopback server; exports by url, half of them also by webhook to a
 * loopback receiver) N at a time while it SIGKILLs and restarts each fault
 * in turn, then prints accepted, finished, failed with reasons, lost,
 * duplicate outputs and webhooks, and how long each fault held up progress.
 * No job or fault starts after --time-limit-s; accepted jobs then get
 * --drain-s to end. Exits 1 when a job was lost, something was duplicated
 * or a fault could not be injected.
 */
import { parseArgs } from 'node:util';
import { formatReport, chaosPassed } from './chaos-report';
import { type ChaosOptions, runChaos } from './chaos-run';
import { runScript } from './run-script';

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} expects a positive integer, got ${JSON.stringify(raw)}`);
  return value;
}

export function chaosOptions(argv: string[]): ChaosOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      jobs: { type: 'string' },
      concurrency: { type: 'string' },
      faults: { type: 'string' },
      'down-ms': { type: 'string' },
      'job-timeout-s': { type: 'string' },
      'drain-s': { type: 'string' },
      'time-limit-s': { type: 'string' },
    },
    strict: true,
  });
  const faults =
    values.faults === undefined || values.faults === 'all'
      ? undefined
      : values.faults === 'none'
        ? []
        : values.faults
            .split(',')
            .map((fault) => fault.trim())
            .filter(Boolean);
  return {
    jobs: positive('jobs', values.jobs, 1_000),
    concurrency: positive('concurrency', values.concurrency, 16),
    ...(faults && { faults }),
    downMs: positive('down-ms', values['down-ms'], 2_000),
    jobTimeoutMs: positive('job-timeout-s', values['job-timeout-s'], 300) * 1_000,
    drainMs: positive('drain-s', values['drain-s'], 300) * 1_000,
    timeLimitMs: positive('time-limit-s', values['time-limit-s'], 3_600) * 1_000,
  };
}

async function main(): Promise<number> {
  const options = chaosOptions(process.argv.slice(2));
  const report = await runChaos({ ...options, log: (line) => process.stderr.write(`[chaos ${new Date().toISOString().slice(11, 19)}] ${line}\n`) });
  process.stdout.write(`${formatReport(report)}\n`);
  return chaosPassed(report) ? 0 : 1;
}

if (require.main === module) runScript(main);
