import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { Counter } from 'prom-client';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { STORAGE, type Storage } from '@transmute/storage';
import type { OrchestratorConfig } from '../config';

/** A first pass soon after start, so a platform that was down for a day catches up. */
const FIRST_SWEEP_DELAY_MS = 60_000;

const expired = new Counter({
  name: 'transmute_storage_files_expired_total',
  help: 'Stored files (uploads, imports, results) deleted by the retention sweep',
});

/**
 * Deletes stored files older than the retention period
 * (TRANSMUTE_FILE_RETENTION_SECONDS): by then every link to them has expired.
 * Replicas sweeping at once only repeat each other's deletes.
 */
@Injectable()
export class RetentionSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(RetentionSweeper.name);
  private timers: NodeJS.Timeout[] = [];
  private running?: Promise<number>;

  constructor(
    @Inject(STORAGE) private readonly storage: Storage,
    @Inject(SERVICE_CONFIG) private readonly config: OrchestratorConfig,
  ) {}

  onApplicationBootstrap(): void {
    const tick = () => void (this.running ??= this.sweep().finally(() => (this.running = undefined)));
    this.timers = [setTimeout(tick, Math.min(FIRST_SWEEP_DELAY_MS, this.config.retentionSweepIntervalMs)), setInterval(tick, this.config.retentionSweepIntervalMs)];
    for (const timer of this.timers) timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    await this.running;
  }

  /** One pass; returns how many files it deleted (0 when the storage could not be swept this time). */
  async sweep(now = new Date()): Promise<number> {
    try {
      const deleted = await this.storage.deleteOlderThan(new Date(now.getTime() - this.config.fileRetentionSeconds * 1_000));
      expired.inc(deleted);
      if (deleted > 0) this.logger.log({ deleted }, 'expired files deleted');
      return deleted;
    } catch (error) {
      this.logger.warn({ err: error }, 'retention sweep failed; the next one tries again');
      return 0;
    }
  }
}
