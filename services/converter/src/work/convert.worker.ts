import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import type { NatsConnection } from 'nats';
import { Consumers, FamilyManifestSchema, Streams, Subjects } from '@transmute/contracts';
import { type KvBucket, MANIFEST_REFRESH_MS, NATS_CONNECTION, type TaskWorkRunner, TaskWorkers, encodeManifest, manifestBucket } from '@transmute/messaging';
import { ReadinessRegistry, SERVICE_CONFIG } from '@transmute/service-kit';
import type { ConverterConfig } from '../config';
import type { ConverterFamily } from '../families/family';
import { FAMILY } from '../families/registry';
import { ConvertHandler } from './convert.handler';
import { watchFamilyReadiness } from './family-readiness.metric';
import { ScratchSpace } from './scratch-space';

/**
 * Starts the family's engines (without waiting for a long-lived one to come
 * up), announces its manifest to the catalogue and keeps it fresh, then
 * consumes `tasks.convert.<family>`. On shutdown it
 * stops pulling, lets running conversions finish (or releases them) and
 * stops the engines.
 */
@Injectable()
export class ConvertWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ConvertWorker.name);
  private runner?: TaskWorkRunner;
  private refresh?: NodeJS.Timeout;
  private readonly manifests: KvBucket<Uint8Array>;
  /** The encoded manifest, built once after the family started. */
  private manifest?: Uint8Array;

  constructor(
    @Inject(FAMILY) private readonly family: ConverterFamily,
    @Inject(NATS_CONNECTION) connection: NatsConnection,
    @Inject(SERVICE_CONFIG) private readonly config: ConverterConfig,
    private readonly workers: TaskWorkers,
    private readonly handler: ConvertHandler,
    private readonly scratchSpace: ScratchSpace,
    private readonly readiness: ReadinessRegistry,
  ) {
    this.manifests = manifestBucket(connection);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.readiness.register('engines', async () => this.family.readiness?.() ?? true);
    watchFamilyReadiness(this.family);
    // Beside the engines' start, and done before the first task, whose directory it would count as a predecessor's.
    const abandoned = this.scratchSpace.clearAbandoned();
    // Never waits for a long-lived engine to come up: the family retries it and says so through its readiness.
    await this.family.start?.();
    // What a family converts is fixed once it started; the refresh only renews the entry's TTL.
    this.manifest = encodeManifest(create(FamilyManifestSchema, { family: this.family.name, engineVersion: this.family.engineVersion, pairs: this.family.pairs() }));
    await this.announce();
    this.refresh = setInterval(() => void this.announce().catch((error: unknown) => this.logger.warn({ err: error }, 'manifest refresh failed')), MANIFEST_REFRESH_MS);
    await abandoned;
    this.runner = await this.workers.start({
      stream: Streams.tasks,
      durable: Consumers.converter(this.family.name),
      filterSubject: Subjects.tasksConvert(this.family.name),
      config: this.config,
      handler: (work, context) => this.handler.handle(work, context),
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.refresh);
    await this.runner?.stop(this.config.shutdownGraceMs);
    await this.scratchSpace.cleared();
    await this.family.stop?.();
  }

  private async announce(): Promise<void> {
    await this.manifests.put(this.family.name, this.manifest!);
  }
}
