/**
 * Fair scheduling across accounts (issue 26): the plan allowance caps how
 * many of one account's conversions run at once across every converter and
 * orchestrator replica, the excess waits (never refused), and one account's
 * flood does not hold up another account's single job.
 *
 * Two orchestrators and two image converters of four slots each (eight
 * slots, so the cap of two is the plan's, not the pool's). The flooding
 * account starts FLOOD jobs; then the small account starts one. Bound: of
 * the flood's jobs still running when the small one starts, fewer than half
 * end before it does. Queued behind the flood (no fair scheduling), it would
 * end after all of them.
 */
import { noisePng } from '../support';
import { TransmuteClient } from '../support/api-client';
import { platformFixture } from '../support/platform-fixture';
import { fairnessPlans, endings, fetchAndConvert, mostConvertsAtOnce, serveSource, startJob, startMany } from './fairness-run';
import { accountWithKey } from './limits-support';

const FLOOD = 30;
const ALLOWANCE = 2;
const env = platformFixture({
  name: 'fair-scheduling',
  extraEnv: {
    TRANSMUTE_PLANS: JSON.stringify(fairnessPlans(ALLOWANCE)),
    // The source is served from this machine.
    TRANSMUTE_ALLOW_PRIVATE_NETWORKS: 'true',
    TRANSMUTE_WORKER_CONCURRENCY: '4',
  },
  replicas: { 'job-orchestrator': 2, 'converter-image': 2 },
});

test("a flooding account runs at most its allowance at once, all its jobs end, and another account's job is not held up", async () => {
  const { platform } = env();
  const source = await serveSource((await noisePng(1600)).bytes);
  try {
    const flooderKey = (await accountWithKey(platform, 'e2e-flood')).key;
    const flooder = new TransmuteClient(platform.baseUrl, flooderKey, 60_000);
    const small = new TransmuteClient(platform.baseUrl, (await accountWithKey(platform, 'e2e-single')).key, 60_000);

    const flood = await startMany(flooder, FLOOD, (i) => fetchAndConvert(source.url, `flood-${i}`));
    const single = await startJob(small, fetchAndConvert(source.url, 'single'));
    // Both watched at once: when each job ended is seen as it happens.
    const [ended, singleEnded] = await Promise.all([endings(flooder, flood, 600_000), endings(small, [single.id], 600_000)]);
    const singleEnd = singleEnded.get(single.id)!;

    // Nothing accepted is refused or lost: every job of the flood waited its turn and finished.
    expect([...ended.values()].map(({ job }) => job.status)).toEqual(Array(FLOOD).fill('finished'));
    expect(singleEnd.job.status).toBe('finished');

    const floodEnds = [...ended.values()].map(({ at }) => at);
    const waitingAtStart = floodEnds.filter((at) => at > single.startedAt).length;
    const endedWhileItRan = floodEnds.filter((at) => at > single.startedAt && at <= singleEnd.at).length;
    process.stdout.write(
      `[fair-scheduling] small job: ${((singleEnd.at - single.startedAt) / 1000).toFixed(1)} s from complete-upload to finished; ` +
        `${waitingAtStart} of ${FLOOD} flood jobs not yet ended when it started, ${endedWhileItRan} of them ended before it\n`,
    );
    // Queued behind the flood it would end after every one of them; next to it, it ends while most still wait.
    expect(waitingAtStart).toBeGreaterThanOrEqual(10);
    expect(endedWhileItRan).toBeLessThan(waitingAtStart / 2);

    // Never more than the allowance of the flood's converts at once, across both converters and orchestrators.
    const most = await mostConvertsAtOnce(flooder, flooderKey, flood);
    process.stdout.write(`[fair-scheduling] most of the flood's converts running at once: ${most}\n`);
    expect(most).toBeLessThanOrEqual(ALLOWANCE);
  } finally {
    await source.close();
  }
}, 900_000);
