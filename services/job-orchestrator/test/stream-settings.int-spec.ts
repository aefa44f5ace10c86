import { DiscardPolicy, type JetStreamManager, RetentionPolicy, StorageType, type StreamConfig, nanos } from 'nats';
import { CONVERT_FAIRNESS, LIVE_JOBS } from '@transmute/contracts';
import { infraFixture } from '@transmute/devstack';
import { JetStreamSetup } from '@transmute/messaging';
import { ReadinessRegistry } from '@transmute/service-kit';
import { WaitingLine } from '../src/fairness/waiting-line';
import { JobStore } from '../src/store/job-store';
import { StoreCounters } from '../src/store/store-counters';

/*
 * The orchestrator's two limits streams (the waiting line, the active jobs)
 * are made through JetStreamSetup, which updates a stream that exists. An
 * install upgraded from the release that made them by hand must start
 * without a changed setting, and a new install must get the same streams.
 * The settings below are what that release wrote.
 */
const RETENTION_SECONDS = 86_400;
const STREAMS_AS_MADE_BEFORE: Array<Partial<StreamConfig> & { name: string }> = [
  {
    name: CONVERT_FAIRNESS.waitingStream,
    subjects: [CONVERT_FAIRNESS.waitingSubject('*')],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    discard: DiscardPolicy.Old,
    max_age: nanos(RETENTION_SECONDS * 1_000),
    duplicate_window: nanos(120_000),
    num_replicas: 1,
    allow_direct: true,
  },
  {
    name: LIVE_JOBS.activeStream,
    subjects: [LIVE_JOBS.activeSubject('*')],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    discard: DiscardPolicy.Old,
    max_msgs_per_subject: 1,
    duplicate_window: nanos(120_000),
    num_replicas: 1,
  },
];

const fixture = infraFixture();
let jsm: JetStreamManager;

beforeAll(async () => {
  jsm = await fixture.nc.jetstreamManager();
});

/** Opens both streams as the orchestrator does at start. */
async function openAsTheOrchestrator(): Promise<void> {
  const config = { fileRetentionSeconds: RETENTION_SECONDS, natsReplicas: 1 };
  const setup = new JetStreamSetup(fixture.nc);
  const readiness = new ReadinessRegistry();
  await new WaitingLine(fixture.nc, config, setup, readiness).lines();
  await new JobStore(fixture.nc, config, setup, new StoreCounters(), readiness).activeJobIds();
}

const settingsOf = async (name: string) => (await jsm.streams.info(name)).config;

async function removeStreams(): Promise<void> {
  for (const { name } of STREAMS_AS_MADE_BEFORE) await jsm.streams.delete(name).catch(() => undefined);
}

it('makes on a new install the streams the earlier release made', async () => {
  await removeStreams();
  await openAsTheOrchestrator();
  const made = await Promise.all(STREAMS_AS_MADE_BEFORE.map(({ name }) => settingsOf(name)));
  await removeStreams();
  for (const stream of STREAMS_AS_MADE_BEFORE) await jsm.streams.add(stream);
  const before = await Promise.all(STREAMS_AS_MADE_BEFORE.map(({ name }) => settingsOf(name)));
  expect(made).toEqual(before);
});

it('starts on the streams of an earlier release without changing a setting', async () => {
  await removeStreams();
  for (const stream of STREAMS_AS_MADE_BEFORE) await jsm.streams.add(stream);
  const before = await Promise.all(STREAMS_AS_MADE_BEFORE.map(({ name }) => settingsOf(name)));
  await openAsTheOrchestrator();
  expect(await Promise.all(STREAMS_AS_MADE_BEFORE.map(({ name }) => settingsOf(name)))).toEqual(before);
});
