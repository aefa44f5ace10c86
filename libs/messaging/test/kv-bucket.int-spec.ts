import { register } from 'prom-client';
import { infraFixture } from '@transmute/devstack';
import { KvBucket, type KvBucketOptions, KvContentionError } from '../src/kv/kv-bucket';
import { type KvCodec, KvCodecs } from '../src/kv/kv-codecs';
import { KvCounter } from '../src/kv/kv-counter';

/** The one KV layer against a real nats-server: typed values, compare-and-set under races, counters, reopening. */
const fixture = infraFixture();
let created = 0;

interface Note {
  text: string;
  version: number;
}

const bucket = <T>(codec: KvCodec<T>, ttlMs = 0, options: KvBucketOptions = {}) => new KvBucket<T>(fixture.nc, { name: `kv_spec_${++created}`, ttlMs }, codec, options);
/** A bucket that keeps the entries it last saw, as a replica's job store and counters do. */
const keeping = <T>(codec: KvCodec<T>) => bucket(codec, 0, { lastSeenKeys: 100 });

describe('KvBucket', () => {
  it('opens on first use, creating the bucket with its TTL, and reads back what it wrote', async () => {
    const notes = bucket<Note>(KvCodecs.json<Note>(), 60_000);
    expect(await notes.get('a')).toBeNull();
    const revision = await notes.put('a', { text: 'first', version: 1 });
    expect(await notes.get('a')).toMatchObject({ key: 'a', value: { text: 'first', version: 1 }, revision });
    const info = await (await fixture.nc.jetstreamManager()).streams.info(`KV_${notes.name}`);
    expect(info.config.max_age).toBe(60_000 * 1_000_000);
    expect(notes.tally().open).toBe(1);
  });

  it('creates only an absent key, replaces only the revision read, and deletes only the revision given', async () => {
    const notes = bucket<Note>(KvCodecs.json<Note>());
    const first = await notes.create('k', { text: 'one', version: 1 });
    expect(first).toBeGreaterThan(0);
    expect(await notes.create('k', { text: 'two', version: 2 })).toBeNull();
    expect(await notes.replace('k', { text: 'two', version: 2 }, first!)).toBe(true);
    expect(await notes.replace('k', { text: 'stale', version: 9 }, first!)).toBe(false);
    const current = (await notes.get('k'))!;
    expect(current.value.text).toBe('two');
    expect(await notes.delete('k', first!)).toBe(false);
    expect(await notes.delete('k', current.revision)).toBe(true);
    expect(await notes.get('k')).toBeNull();
    // A deleted key can be created again.
    expect(await notes.create('k', { text: 'again', version: 3 })).not.toBeNull();
    expect(notes.tally().conflict).toBe(3);
  });

  it('mutate: concurrent increments from many writers all count, each decided on the value it read', async () => {
    const counts = bucket<number>(KvCodecs.integer);
    const writers = Array.from({ length: 3 }, () => new KvBucket<number>(fixture.nc, counts.definition, KvCodecs.integer));
    const outcomes = await Promise.all(
      Array.from({ length: 60 }, (_, index) => writers[index % writers.length]!.mutate('hits', (current) => ({ write: (current?.value ?? 0) + 1, result: current?.value ?? 0 }))),
    );
    expect((await counts.get('hits'))!.value).toBe(60);
    // Every writer saw a distinct value: no increment was lost or applied twice.
    expect(new Set(outcomes.map((outcome) => outcome.result)).size).toBe(60);
    expect(outcomes.every((outcome) => outcome.written)).toBe(true);
    expect(outcomes.reduce((sum, outcome) => sum + outcome.conflicts, 0)).toBe(writers.reduce((sum, writer) => sum + writer.tally().conflict, 0));
  });

  it('mutate: a decision without a value leaves the key alone and says what it read', async () => {
    const notes = bucket<Note>(KvCodecs.json<Note>());
    await notes.put('n', { text: 'kept', version: 1 });
    const outcome = await notes.mutate('n', (current) => ({ result: current?.value.text }));
    expect(outcome).toMatchObject({ result: 'kept', written: false, entry: { value: { text: 'kept' } }, conflicts: 0 });
    expect(notes.tally().update).toBe(0);
  });

  it('mutate on a kept entry: writes without reading while it is current', async () => {
    const counts = keeping<number>(KvCodecs.integer);
    await counts.mutate('n', (current) => ({ write: (current?.value ?? 0) + 1, result: undefined }));
    const second = await counts.mutate('n', (current) => ({ write: current!.value + 1, result: current!.value }));
    expect(second).toMatchObject({ written: true, result: 1, conflicts: 0, reads: 0, entry: { value: 2 } });
    expect((await counts.get('n'))!).toMatchObject({ value: 2, revision: second.entry!.revision });
    expect(counts.tally()).toMatchObject({ get: 2, update: 1, create: 1, conflict: 0 });
  });

  it('mutate without kept entries reads every time', async () => {
    const counts = bucket<number>(KvCodecs.integer);
    await counts.mutate('n', (current) => ({ write: (current?.value ?? 0) + 1, result: undefined }));
    expect(await counts.mutate('n', (current) => ({ write: current!.value + 1, result: undefined }))).toMatchObject({ reads: 1, conflicts: 0 });
  });

  it('mutate on a stale kept entry: a write loses its race and is decided again on what is stored', async () => {
    const counts = keeping<number>(KvCodecs.integer);
    await counts.put('n', 1);
    await new KvBucket<number>(fixture.nc, counts.definition, KvCodecs.integer).put('n', 10);
    const outcome = await counts.mutate('n', (current) => ({ write: current!.value + 1, result: current!.value }));
    expect(outcome).toMatchObject({ written: true, result: 10, conflicts: 1, reads: 1, entry: { value: 11 } });
    expect((await counts.get('n'))!.value).toBe(11);
  });

  it('mutate on a stale kept entry: a decision to leave the key is made again on what is stored', async () => {
    const flags = keeping<Note>(KvCodecs.json<Note>());
    await flags.put('f', { text: 'waiting', version: 1 });
    await new KvBucket<Note>(fixture.nc, flags.definition, KvCodecs.json<Note>()).put('f', { text: 'ready', version: 2 });
    // On the kept entry there is nothing to do; on the stored one there is.
    const outcome = await flags.mutate('f', (current) => (current?.value.text === 'ready' ? { write: { text: 'done', version: 3 }, result: 'moved' } : { result: 'left' }));
    expect(outcome).toMatchObject({ written: true, result: 'moved', reads: 1, entry: { value: { text: 'done' } } });
  });

  it('a delete forgets the kept entry: the next mutate reads', async () => {
    const counts = keeping<number>(KvCodecs.integer);
    await counts.put('n', 1);
    await counts.delete('n');
    const outcome = await counts.mutate('n', (current) => ({ write: (current?.value ?? 0) + 1, result: current?.value ?? null }));
    expect(outcome).toMatchObject({ written: true, result: null, reads: 1, conflicts: 0, entry: { value: 1 } });
  });

  it('kept: the entry last written or read here, without a read; nothing for a bucket that keeps none or a key it lost a race on', async () => {
    const counts = keeping<number>(KvCodecs.integer);
    expect(counts.kept('n')).toBeUndefined();
    const revision = await counts.put('n', 1);
    expect(counts.kept('n')).toMatchObject({ value: 1, revision });
    const plain = bucket<number>(KvCodecs.integer);
    await plain.put('n', 1);
    expect(plain.kept('n')).toBeUndefined();
    // Written past the kept entry: a mutate finds out, and the key is read from then on.
    await new KvBucket<number>(fixture.nc, counts.definition, KvCodecs.integer).put('n', 10);
    expect(counts.kept('n')).toMatchObject({ value: 1 });
    await counts.mutate('n', (current) => ({ write: current!.value + 1, result: undefined }));
    expect(counts.kept('n')).toBeUndefined();
    expect(counts.tally()).toMatchObject({ get: 1 });
  });

  it("one key's mutations in a process run in turn: concurrent callers follow each other without a lost race", async () => {
    const counts = keeping<number>(KvCodecs.integer);
    await counts.put('n', 0);
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => counts.mutate('n', (current) => ({ write: current!.value + 1, result: undefined }))));
    expect(outcomes.map((outcome) => outcome.conflicts)).toEqual(Array(10).fill(0));
    expect((await counts.get('n'))!.value).toBe(10);
    expect(counts.tally()).toMatchObject({ get: 1, update: 10 });
  });

  it('mutate: gives up with a clear error after its limit of lost races', async () => {
    const notes = bucket<number>(KvCodecs.integer);
    await notes.put('busy', 0);
    // A rival on the same connection: its write is sent before ours, so the server applies it first every time.
    const rival = await new KvBucket<number>(fixture.nc, notes.definition, KvCodecs.integer).open();
    let decisions = 0;
    const error = await notes
      .mutate(
        'busy',
        (current) => {
          decisions += 1;
          void rival.put('busy', KvCodecs.integer.encode(1000 + decisions));
          return { write: (current?.value ?? 0) + 1, result: undefined };
        },
        { maxAttempts: 3 },
      )
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(KvContentionError);
    expect((error as Error).message).toBe(`compare-and-set on ${notes.name}/busy lost 3 races in a row`);
    expect(decisions).toBe(3);
    expect(notes.tally().conflict).toBe(3);
  });

  it('reopens after NATS restarts: a failed open is retried, not remembered', async () => {
    const notes = bucket<Note>(KvCodecs.json<Note>());
    await notes.put('before', { text: 'before', version: 1 });
    await fixture.infra.restart('nats');
    const after = await waitFor(() => notes.get('before'));
    expect(after?.value.text).toBe('before');
    const fresh = bucket<Note>(KvCodecs.json<Note>());
    expect(await fresh.put('after', { text: 'after', version: 1 })).toBeGreaterThan(0);
  });

  it('counts operations by bucket on /metrics', async () => {
    const notes = bucket<Note>(KvCodecs.json<Note>());
    await notes.get('x');
    await notes.put('x', { text: 'x', version: 1 });
    const metric = await register.getSingleMetric('transmute_kv_operations_total')!.get();
    const value = (operation: string) => metric.values.find((sample) => sample.labels.bucket === notes.name && sample.labels.operation === operation)?.value;
    expect([value('get'), value('put')]).toEqual([1, 1]);
  });
});

describe('KvCounter', () => {
  it('counts up to a limit exactly, however many callers race for the last places', async () => {
    const counter = new KvCounter(bucket<number>(KvCodecs.integer));
    const outcomes = await Promise.all(Array.from({ length: 25 }, () => counter.incrementBelow('window', 10)));
    expect(outcomes.filter((outcome) => outcome.counted)).toHaveLength(10);
    expect(await counter.value('window')).toBe(10);
    expect(await counter.add('window', -4)).toBe(6);
  });

  it('counts on from the entry it last wrote: one write per increment after the first read', async () => {
    const counts = keeping<number>(KvCodecs.integer);
    const counter = new KvCounter(counts);
    for (let count = 1; count <= 5; count++) expect(await counter.incrementBelow('window', 10)).toEqual({ counted: true, value: count });
    expect(counts.tally()).toMatchObject({ get: 1, create: 1, update: 4, conflict: 0 });
  });

  it('replicas taking turns on one counter stay exact, and each reads first once its kept entry lost a race', async () => {
    const definition = bucket<number>(KvCodecs.integer).definition;
    const replicas = [0, 1].map(() => new KvBucket<number>(fixture.nc, definition, KvCodecs.integer, { lastSeenKeys: 100 }));
    const counters = replicas.map((replica) => new KvCounter(replica));
    for (let turn = 0; turn < 10; turn++) await counters[turn % 2]!.incrementBelow('window', 100);
    expect(await counters[0]!.value('window')).toBe(10);
    expect(replicas.map((replica) => replica.tally().conflict)).toEqual([1, 1]);
  });

  it('a refusal decided on a stale kept entry is decided again on the stored count', async () => {
    const definition = bucket<number>(KvCodecs.integer).definition;
    const counter = new KvCounter(new KvBucket<number>(fixture.nc, definition, KvCodecs.integer, { lastSeenKeys: 100 }));
    const other = new KvCounter(new KvBucket<number>(fixture.nc, definition, KvCodecs.integer, { lastSeenKeys: 100 }));
    await counter.incrementBelow('window', 2);
    await counter.incrementBelow('window', 2);
    // Another replica gives a place back; this one still holds the full count.
    expect(await other.add('window', -1)).toBe(1);
    expect(await counter.incrementBelow('window', 2)).toEqual({ counted: true, value: 2 });
  });
});

async function waitFor<T>(read: () => Promise<T>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await read();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
