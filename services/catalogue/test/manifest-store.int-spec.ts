import { create } from '@bufbuild/protobuf';
import { FamilyManifestSchema } from '@transmute/contracts';
import { infraFixture } from '@transmute/devstack';
import { encodeManifest, manifestBucket } from '@transmute/messaging';
import { ReadinessRegistry } from '@transmute/service-kit';
import type { CatalogueConfig } from '../src/config';
import { ManifestStore } from '../src/manifest-store';

const manifest = (family: string, inputs: string[]) =>
  create(FamilyManifestSchema, { family, pairs: inputs.map((inputFormat) => ({ inputFormat, outputFormat: `${family}out` })) });

/** The store reads every family's manifest from a real KV bucket, not just the first key it meets. */
describe('ManifestStore on real NATS', () => {
  let store: ManifestStore | undefined;
  // Above the fixture, so its afterAll runs first: the store stops watching before the connection closes.
  afterAll(() => store?.onApplicationShutdown());
  const fixture = infraFixture({ maxReconnectAttempts: -1, reconnectTimeWait: 250 });

  it('lists the inputs of every announced family after a rebuild', async () => {
    const bucket = manifestBucket(fixture.nc);
    const families = ['image', 'video', 'audio', 'document', 'ebook'];
    for (const [n, family] of families.entries()) await bucket.put(family, encodeManifest(manifest(family, [`in${n}a`, `in${n}b`])));

    const config = { familyPriority: families } as unknown as CatalogueConfig;
    store = new ManifestStore(fixture.nc, new ReadinessRegistry(), config);
    await store.onApplicationBootstrap();

    expect(store.index.inputs()).toEqual(families.flatMap((_family, n) => [`in${n}a`, `in${n}b`]).sort());
  });

  it('applies a changed manifest at once and forgets a removed family', async () => {
    const bucket = manifestBucket(fixture.nc);
    await bucket.put('image', encodeManifest(manifest('image', ['fresh'])));
    await bucket.delete('video');

    const deadline = Date.now() + 10_000;
    while (!(store!.index.inputs().includes('fresh') && !store!.index.inputs().includes('in1a')) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(store!.index.inputs()).toContain('fresh');
    expect(store!.index.inputs()).not.toContain('in0a');
    expect(store!.index.inputs()).not.toContain('in1a');
  });

  it('keeps every family through a NATS restart, past its next expiry check', async () => {
    const before = store!.index.inputs();
    await fixture.infra.restart('nats');
    // The expiry check lists the bucket's keys every 10 s; watch the index across one of those.
    const lost = new Set<string>();
    const until = Date.now() + 11_000;
    while (Date.now() < until) {
      for (const input of before) if (!store!.index.inputs().includes(input)) lost.add(input);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect([...lost]).toEqual([]);
  });
});
