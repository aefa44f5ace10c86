import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { ServiceFailure } from '@transmute/contracts';
import { resolveCommand } from '../../../engine/resolve-command';
import { engineEnvironment } from '../../../engine/run-engine';
import { type OfficeJob, OfficeInstance } from './office-instance';
import type { OfficePoolSettings } from './office-pool.config';

/**
 * A fixed number of warm LibreOffice processes. A job borrows an idle one
 * (or waits for one); a process that died, timed out or has served
 * `maxConversions` jobs is replaced before it is handed out again.
 */
export class OfficePool {
  private readonly logger = new Logger(OfficePool.name);
  private readonly instances: OfficeInstance[] = [];
  private readonly idle: OfficeInstance[] = [];
  private readonly waiters: ((instance: OfficeInstance) => void)[] = [];
  private readonly restarts = new Map<OfficeInstance, Promise<OfficeInstance>>();
  private profileRoot?: string;
  private ownsProfileRoot = false;
  private started?: Promise<void>;
  private stopped = false;

  constructor(private readonly config: OfficePoolSettings) {}

  /** Starts every slot; safe to call more than once. */
  start(): Promise<void> {
    this.started ??= this.startAll().catch(async (error: unknown) => {
      this.started = undefined;
      await this.stop();
      this.stopped = false;
      throw error;
    });
    return this.started;
  }

  /** True while every slot's process is up (the worker's readiness). */
  get isReady(): boolean {
    return this.instances.length === this.config.size && this.instances.every((instance) => instance.isAlive);
  }

  /** Conversions each slot has served since its last (re)start, for tests and metrics. */
  servedCounts(): number[] {
    return this.instances.map((instance) => instance.served);
  }

  async convert(job: OfficeJob, signal: AbortSignal): Promise<void> {
    await this.start();
    const instance = await this.acquire(signal);
    try {
      await instance.convert(job, this.config.timeoutMs, signal);
    } finally {
      this.release(instance);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.instances.map((instance) => instance.stop()));
    this.instances.length = 0;
    this.idle.length = 0;
    if (this.profileRoot && this.ownsProfileRoot) await rm(this.profileRoot, { recursive: true, force: true });
  }

  private async startAll(): Promise<void> {
    this.stopped = false;
    const [python, soffice] = await Promise.all([resolveCommand(this.config.python), resolveCommand(this.config.soffice)]);
    if (!python) throw ServiceFailure.unavailable(`the LibreOffice pool needs ${this.config.python} with the uno module (Debian: python3-uno)`);
    if (!soffice) throw ServiceFailure.unavailable(`the LibreOffice pool needs ${this.config.soffice} (Debian: libreoffice-*-nogui)`);
    if (this.config.profileRoot) {
      this.profileRoot = this.config.profileRoot;
      await mkdir(this.profileRoot, { recursive: true });
    } else {
      this.profileRoot = await mkdtemp(join(tmpdir(), 'transmute-office-'));
      this.ownsProfileRoot = true;
    }
    // A headless display plug-in: no window, no first-start dialog.
    const env = engineEnvironment({ SAL_USE_VCLPLUGIN: 'svp' });
    for (let slot = 0; slot < this.config.size; slot++) {
      this.instances.push(
        new OfficeInstance(slot, {
          python,
          soffice,
          profileDir: join(this.profileRoot, `profile-${slot}`),
          env,
          // An idle slot that crashed comes back at once; a busy one is restarted when its job returns it.
          onUnexpectedExit: (instance) => {
            if (this.idle.includes(instance)) this.refresh(instance).catch((error: unknown) => this.logger.warn({ err: error }, 'LibreOffice restart failed'));
          },
        }),
      );
    }
    await Promise.all(this.instances.map((instance) => instance.start()));
    this.idle.push(...this.instances);
    this.logger.log({ size: this.config.size }, 'LibreOffice pool is warm');
  }

  private acquire(signal: AbortSignal): Promise<OfficeInstance> {
    const ready = this.idle.shift();
    if (ready) return this.refreshOrRelease(ready);
    return new Promise<OfficeInstance>((resolve, reject) => {
      const onAbort = () => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(ServiceFailure.unavailable('the conversion was cancelled while waiting for LibreOffice'));
      };
      const waiter = (instance: OfficeInstance) => {
        signal.removeEventListener('abort', onAbort);
        this.refreshOrRelease(instance).then(resolve, reject);
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /** Restarts a slot that died, hung or is worn out, before it takes a job; one restart at a time per slot. */
  private refresh(instance: OfficeInstance): Promise<OfficeInstance> {
    if (instance.isAlive && instance.served < this.config.maxConversions) return Promise.resolve(instance);
    let restart = this.restarts.get(instance);
    if (!restart) {
      const reason = instance.isAlive ? `served ${instance.served} conversions` : 'its process is gone';
      this.logger.log({ slot: instance.slot, reason }, 'restarting a LibreOffice process');
      const stoppedMeanwhile = () => ServiceFailure.unavailable('the LibreOffice pool is stopping');
      restart = instance
        .stop()
        .then(async () => {
          if (this.stopped) throw stoppedMeanwhile();
          await instance.start();
          if (this.stopped) {
            await instance.stop();
            throw stoppedMeanwhile();
          }
          return instance;
        })
        .finally(() => this.restarts.delete(instance));
      this.restarts.set(instance, restart);
    }
    return restart;
  }

  /** A slot that cannot be restarted goes back to the pool (the next job tries again) and this job fails. */
  private async refreshOrRelease(instance: OfficeInstance): Promise<OfficeInstance> {
    try {
      return await this.refresh(instance);
    } catch (error) {
      this.returnToPool(instance);
      throw error;
    }
  }

  private release(instance: OfficeInstance): void {
    if (this.stopped) return;
    // A slot killed by a timeout comes back at once, so readiness recovers without waiting for the next job.
    if (!instance.isAlive) this.refresh(instance).catch((error: unknown) => this.logger.warn({ err: error }, 'LibreOffice restart failed'));
    this.returnToPool(instance);
  }

  private returnToPool(instance: OfficeInstance): void {
    if (this.stopped) return;
    const waiter = this.waiters.shift();
    if (waiter) waiter(instance);
    else this.idle.push(instance);
  }
}
