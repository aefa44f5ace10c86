import { type NatsConnection, connect } from 'nats';
import { type RunningNatsCluster, startNatsCluster } from '@transmute/devstack';
import { KvBucket } from '../src/kv/kv-bucket';
import { KvCodecs } from '../src/kv/kv-codecs';

/*
 * A bucket with three copies on a real three-server NATS cluster, as the
 * chart runs it, read from a connection to each server. A replica may lag
 * its leader: a read it answered could show a value older than a write that
 * was already acknowledged, and a compare-and-set never sees a read that
 * decided to change nothing. So every read must show the last acknowledged write.
 */
jest.setTimeout(120_000);

let cluster: RunningNatsCluster;
let connections: NatsConnection[];

beforeAll(async () => {
  cluster = await startNatsCluster(3);
  connections = await Promise.all(cluster.servers.map((server) => connect({ servers: server.url })));
});
afterAll(async () => {
  await Promise.all((connections ?? []).map((connection) => connection.close()));
  await cluster?.stop();
});

it('reads back the last acknowledged write from every server of a three-server cluster', async () => {
  const buckets = connections.map((connection) => new KvBucket(connection, { name: 'kv_cluster_spec', replicas: 3 }, KvCodecs.json<number>()));
  const stale: string[] = [];
  for (let write = 0; write < 1500; write += 1) {
    const key = `k${write % 20}`;
    const revision = await buckets[write % 3]!.put(key, write);
    for (const [server, bucket] of buckets.entries()) {
      const entry = await bucket.get(key);
      if (entry?.revision !== revision) stale.push(`write ${write} (revision ${revision}) read on server ${server} as revision ${entry?.revision}`);
    }
  }
  expect(stale).toEqual([]);
});

/*
 * Compare-and-sets racing on one key, from every server at once. A clustered
 * stream refuses a write whose key already has one in flight with its own
 * code (10164, "wrong last sequence" without a number), where a lost race
 * against an applied write gives 10071: both are a lost race, and each
 * increment must be retried until it lands, none lost and none failed.
 */
it('counts every increment when compare-and-sets race on one key across the cluster', async () => {
  const buckets = connections.map((connection) => new KvBucket(connection, { name: 'kv_cluster_race', replicas: 3 }, KvCodecs.json<number>()));
  const increments = 60;
  // The bucket exists before the race, as the services' setup makes it.
  for (const bucket of buckets) await bucket.put('counter', 0);
  const results = await Promise.allSettled(
    Array.from({ length: increments }, (_, n) => buckets[n % 3]!.mutate('counter', (current) => ({ write: (current?.value ?? 0) + 1, result: undefined }), { maxAttempts: 200 })),
  );
  const failures = results.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
  expect(failures).toEqual([]);
  expect((await buckets[0]!.get('counter'))?.value).toBe(increments);
});
