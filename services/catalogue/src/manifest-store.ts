import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { type FamilyManifest, ServiceFailure } from '@transmute/contracts';
import { type KvBucket, NATS_CONNECTION, decodeManifest, manifestBucket } from '@transmute/messaging';
import { ReadinessRegistry, SERVICE_CONFIG } from '@transmute/service-kit';
import type { CatalogueConfig } from './config';
import { CatalogueIndex } from './catalogue-index';

const EXPIRY_CHECK_MS = 10_000;

/**
 * Keeps the index in step with the manifest bucket: a watch applies new
 * manifests at once; a periodic key listing drops families whose entries expired.
 */
@Injectable()
export class ManifestStore implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ManifestStore.name);
  private readonly manifests = new Map<string, { encoded: Uint8Array; manifest: FamilyManifest }>();
  private readonly bucket: KvBucket<Uint8Array>;
  private opened = false;
  private timer?: NodeJS.Timeout;
  private stopWatch?: () => void;
  private current = new CatalogueIndex([]);
  private loaded = false;

  constructor(
    @Inject(NATS_CONNECTION) connection: NatsConnection,
    private readonly readiness: ReadinessRegistry,
    @Inject(SERVICE_CONFIG) private readonly config: CatalogueConfig,
  ) {
    this.bucket = manifestBucket(connection);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.bucket.open();
    this.opened = true;
    this.readiness.register('manifests', async () => this.opened);
    await this.rebuild();
    this.loaded = true;
    const watch = await this.bucket.watch({ ignoreDeletes: false });
    this.stopWatch = () => watch.stop();
    void (async () => {
      for await (const entry of watch) {
        const changed = entry.operation === 'PUT' ? this.put(entry.key, entry.value) : this.manifests.delete(entry.key);
        if (changed) this.reindex();
      }
    })();
    this.timer = setInterval(() => void this.dropExpired().catch((error: unknown) => this.logger.warn({ err: error }, 'expiry check failed')), EXPIRY_CHECK_MS);
  }

  /**
   * The catalogue as the running families describe it. Asked before the
   * first read of the bucket (the RPC server can answer that early) it is
   * unavailable, not empty: an empty answer would refuse every pair as if
   * no family converted it.
   */
  get index(): CatalogueIndex {
    if (!this.loaded) throw ServiceFailure.unavailable('the format catalogue is still loading; try again shortly');
    return this.current;
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
    this.stopWatch?.();
  }

  /** Reads every family present in the bucket; used once at start, before the watch takes over. */
  private async rebuild(): Promise<void> {
    for (const key of await this.presentFamilies()) {
      const entry = await this.bucket.get(key);
      if (entry) this.put(key, entry.value);
    }
    this.reindex();
  }

  /** KV entries that expire by TTL leave no delete marker for the watch, so expiry is found by listing keys. */
  private async dropExpired(): Promise<void> {
    const present = new Set(await this.presentFamilies());
    let changed = false;
    for (const family of this.manifests.keys()) {
      if (!present.has(family)) changed = this.manifests.delete(family) || changed;
    }
    if (changed) this.reindex();
  }

  private presentFamilies(): Promise<string[]> {
    return this.bucket.keys();
  }

  /**
   * Families re-announce the same manifest every 20 s; decoding it (4.8 MB of
   * protobuf for the image family) only when the bytes changed keeps that off
   * the catalogue's CPU. Returns whether the catalogue changed.
   */
  private put(family: string, value: Uint8Array): boolean {
    const known = this.manifests.get(family);
    if (known && Buffer.from(known.encoded).equals(Buffer.from(value))) return false;
    try {
      this.manifests.set(family, { encoded: value, manifest: decodeManifest(value) });
      return true;
    } catch (error) {
      this.logger.warn(`ignoring unreadable manifest of ${family}: ${(error as Error).message}`);
      return false;
    }
  }

  private reindex(): void {
    this.current = new CatalogueIndex(
      [...this.manifests.values()].map((entry) => entry.manifest),
      this.config.familyPriority,
    );
  }
}
