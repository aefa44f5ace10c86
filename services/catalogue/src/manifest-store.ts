import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { KV, NatsConnection } from 'nats';
import type { FamilyManifest } from '@transmute/contracts';
import { NATS_CONNECTION, decodeManifest, openManifestBucket } from '@transmute/messaging';
import { ReadinessRegistry, SERVICE_CONFIG } from '@transmute/service-kit';
import type { CatalogueConfig } from './config';
import { CatalogueIndex } from './catalogue-index';

const REBUILD_INTERVAL_MS = 10_000;

/**
 * Keeps the index in step with the manifest bucket: a watch applies new
 * manifests at once; a periodic rebuild drops families whose entries expired.
 */
@Injectable()
export class ManifestStore implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ManifestStore.name);
  private readonly manifests = new Map<string, FamilyManifest>();
  private bucket?: KV;
  private timer?: NodeJS.Timeout;
  private stopWatch?: () => void;
  index = new CatalogueIndex([]);

  constructor(
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
    private readonly readiness: ReadinessRegistry,
    @Inject(SERVICE_CONFIG) private readonly config: CatalogueConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.bucket = await openManifestBucket(this.connection.jetstream());
    this.readiness.register('manifests', async () => this.bucket !== undefined);
    await this.rebuild();
    const watch = await this.bucket.watch({ ignoreDeletes: false });
    this.stopWatch = () => watch.stop();
    void (async () => {
      for await (const entry of watch) {
        if (entry.operation === 'PUT') this.put(entry.key, entry.value);
        else this.manifests.delete(entry.key);
        this.index = new CatalogueIndex([...this.manifests.values()], this.config.familyPriority);
      }
    })();
    this.timer = setInterval(() => void this.rebuild().catch((error: unknown) => this.logger.warn({ err: error }, 'rebuild failed')), REBUILD_INTERVAL_MS);
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
    this.stopWatch?.();
  }

  private async rebuild(): Promise<void> {
    const bucket = this.bucket!;
    const present = new Set<string>();
    // Collect the keys first: awaiting a get inside the keys() iteration ends it after the first key (nats.js 2.29).
    const keys: string[] = [];
    for await (const key of await bucket.keys()) keys.push(key);
    for (const key of keys) {
      const entry = await bucket.get(key);
      if (entry && entry.operation === 'PUT') {
        present.add(key);
        this.put(key, entry.value);
      }
    }
    for (const family of this.manifests.keys()) if (!present.has(family)) this.manifests.delete(family);
    this.index = new CatalogueIndex([...this.manifests.values()], this.config.familyPriority);
  }

  private put(family: string, value: Uint8Array): void {
    try {
      this.manifests.set(family, decodeManifest(value));
    } catch (error) {
      this.logger.warn(`ignoring unreadable manifest of ${family}: ${(error as Error).message}`);
    }
  }
}
