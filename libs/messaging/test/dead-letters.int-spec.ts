import { register } from 'prom-client';
import { DEAD_LETTERS_STREAM, DeadLetterSources } from '@transmute/contracts';
import { infraFixture } from '@transmute/devstack';
import { DeadLetterPublisher, readDeadLetters } from '../src/dead-letters';
import { JetStreamSetup } from '../src/jetstream-setup';

/** The shared DEAD_LETTERS stream against a real NATS: what writers publish is what the admin CLI reads. */
const fixture = infraFixture();

async function counted(source: string, kind: string): Promise<number> {
  const metric = await register.getSingleMetric('transmute_dead_letters_total')!.get();
  return metric.values.find((value) => value.labels.source === source && value.labels.kind === kind)?.value ?? 0;
}

it('reads nothing before any service wrote the stream', async () => {
  expect(await readDeadLetters(await fixture.nc.jetstreamManager(), { limit: 10 })).toEqual([]);
});

it('keeps one letter per id, newest first, filtered by source, and counts each once', async () => {
  const publisher = new DeadLetterPublisher(new JetStreamSetup(fixture.nc), fixture.nc);
  const webhook = { source: DeadLetterSources.webhookDispatcher, kind: 'webhook.delivery', subject: 'webhooks.deliver', attempts: 5 };
  await publisher.publish({ ...webhook, id: 'webhook.a', deliveryId: 'a', jobId: 'job-1', error: 'HTTP 500 on every attempt', payload: new Uint8Array([1, 2]) });
  // A repeated publish (a retry after a lost ack) is dropped by the stream and not counted again.
  await publisher.publish({ ...webhook, id: 'webhook.a', deliveryId: 'a', jobId: 'job-1', error: 'HTTP 500 on every attempt' });
  await publisher.publish({ ...webhook, id: 'webhook.b', deliveryId: 'b', jobId: 'job-2', error: 'connection refused' });
  await publisher.publish({ source: DeadLetterSources.orchestrator, kind: 'task.outcome', subject: 'tasks.outcomes', id: 'outcome.7', jobId: 'job-3', error: 'undecodable' });

  const jsm = await fixture.nc.jetstreamManager();
  const all = await readDeadLetters(jsm, { limit: 10 });
  expect(all.map((letter) => letter.id)).toEqual(['outcome.7', 'webhook.b', 'webhook.a']);
  expect(all[2]).toMatchObject({ jobId: 'job-1', deliveryId: 'a', attempts: 5, error: 'HTTP 500 on every attempt', payload: new Uint8Array([1, 2]) });
  expect(all[2]!.deadAt).toBeDefined();
  expect((await readDeadLetters(jsm, { limit: 10, source: DeadLetterSources.webhookDispatcher })).map((letter) => letter.id)).toEqual(['webhook.b', 'webhook.a']);
  expect(await readDeadLetters(jsm, { limit: 1 })).toHaveLength(1);
  expect(await counted(DeadLetterSources.webhookDispatcher, 'webhook.delivery')).toBe(2);
  expect(await counted(DeadLetterSources.orchestrator, 'task.outcome')).toBe(1);
  // Kept, not a work queue, and bounded.
  const info = await jsm.streams.info(DEAD_LETTERS_STREAM.name);
  expect(info.config.retention).toBe('limits');
  expect(info.config.max_msgs).toBe(DEAD_LETTERS_STREAM.maxMessages);
});
