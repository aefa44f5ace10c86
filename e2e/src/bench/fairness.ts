/**
 * `pnpm bench:fairness`: how long one small account's job waits while
 * another account floods the platform, beside the same job on an idle
 * platform (issue 26, fair scheduling).
 *
 *   node e2e/dist/bench/fairness.js [--flood N (200)] [--allowance A (2)] [--slots S (4)] [--size PX (1600)]
 *
 * Starts its own infra and platform (its accounts need their own plans):
 * two orchestrators and two image converters of S slots each. Each job
 * fetches one generated noise PNG (PX x PX) by import/url and converts it to
 * JPG. Phase 1: the small account's job alone. Phase 2: the flooding account
 * (plan allowance A) starts N jobs, then the small account starts one. The
 * small job's wait is from its complete-upload to the poll that sees it
 * finished. Prints both side by side, how many of the flood ended before the
 * small job, and the most of the flood's converts that ran at once.
 */
import { parseArgs } from 'node:util';
import { TransmuteClient } from '../support/api-client';
import { startLocalPlatform } from '../support/platform';
import { noisePng } from '../support/samples';
import { endings, fairnessPlans, fetchAndConvert, mostConvertsAtOnce, serveSource, startJob, startMany } from '../limits/fairness-run';
import { accountWithKey } from '../limits/limits-support';
import { positiveInteger } from './bench-kit';

function readOptions(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      flood: { type: 'string' },
      allowance: { type: 'string' },
      slots: { type: 'string' },
      size: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write('usage: node e2e/dist/bench/fairness.js [--flood N (200)] [--allowance A (2)] [--slots S (4)] [--size PX (1600)]\n');
    process.exit(0);
  }
  return {
    flood: positiveInteger('flood', values.flood, 200),
    allowance: positiveInteger('allowance', values.allowance, 2),
    slots: positiveInteger('slots', values.slots, 4),
    size: positiveInteger('size', values.size, 1600),
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  process.stdout.write(`starting a platform (2 orchestrators, 2 image converters x ${options.slots} slots; flood allowance ${options.allowance})...\n`);
  const started = await startLocalPlatform({
    name: 'bench-fairness',
    extraEnv: { TRANSMUTE_PLANS: JSON.stringify(fairnessPlans(options.allowance)), TRANSMUTE_ALLOW_PRIVATE_NETWORKS: 'true', TRANSMUTE_WORKER_CONCURRENCY: String(options.slots) },
    replicas: { 'job-orchestrator': 2, 'converter-image': 2 },
  });
  let failed = true;
  const source = await serveSource((await noisePng(options.size)).bytes);
  try {
    const { platform } = started;
    const flooderKey = (await accountWithKey(platform, 'e2e-flood')).key;
    const flooder = new TransmuteClient(platform.baseUrl, flooderKey, 60_000);
    const small = new TransmuteClient(platform.baseUrl, (await accountWithKey(platform, 'e2e-single')).key, 60_000);

    const alone = await startJob(small, fetchAndConvert(source.url, 'alone'));
    const aloneEnd = (await endings(small, [alone.id], 600_000)).get(alone.id)!;

    const floodStarted = performance.now();
    const flood = await startMany(flooder, options.flood, (i) => fetchAndConvert(source.url, `flood-${i}`));
    const single = await startJob(small, fetchAndConvert(source.url, 'under-flood'));
    const [singleEnded, floodEnded] = await Promise.all([endings(small, [single.id], 3_600_000), endings(flooder, flood, 3_600_000)]);
    const singleEnd = singleEnded.get(single.id)!;
    const floodEnds = [...floodEnded.values()].map(({ at }) => at).sort((a, b) => a - b);
    const most = await mostConvertsAtOnce(flooder, flooderKey, flood);

    process.stdout.write(
      [
        '',
        `small account's job, complete-upload to finished (${options.size}x${options.size} noise PNG -> JPG):`,
        `  idle platform:                ${seconds(aloneEnd.at - alone.startedAt)}`,
        `  under a flood of ${String(options.flood).padEnd(5)} jobs:  ${seconds(singleEnd.at - single.startedAt)}`,
        `flood: ${floodEnds.filter((at) => at > single.startedAt).length} of ${options.flood} not ended when the small job started, ${floodEnds.filter((at) => at > single.startedAt && at <= singleEnd.at).length} of them ended before it; all ${options.flood} took ${seconds(floodEnds.at(-1)! - floodStarted)} (${[...floodEnded.values()].filter(({ job }) => job.status === 'finished').length} finished)`,
        `most of the flood's converts running at once: ${most} (allowance ${options.allowance}, ${2 * options.slots} converter slots)`,
        '',
      ].join('\n'),
    );
    failed = singleEnd.job.status !== 'finished' || aloneEnd.job.status !== 'finished';
  } finally {
    await source.close();
    await started.stop({ keepFiles: failed });
    if (failed) process.stderr.write(`service logs kept in ${started.logDir}\n`);
  }
  process.exitCode = failed ? 1 : 0;
}

void main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
