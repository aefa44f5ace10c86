import { Logger } from '@nestjs/common';
import { ServiceFailure } from '@transmute/contracts';
import type { EngineProcess, EngineProcessFactory } from './engine-process';
import { type RestartReason, engineMetrics } from './engine-metrics';

export interface EngineSupervisorSettings {
  /** Metric label and log name, e.g. `libreoffice`. */
  engine: string;
  /** Name in messages, e.g. `LibreOffice`. */
  label: string;
  /** Processes kept (one conversion each at a time). */
  size: number;
  /** Conversions one process serves before it is restarted (bounds leaks). */
  maxConversions: number;
  /** A conversion still running after this long is killed with its process; the slot is restarted. */
  timeoutMs: number;
  /** Conversions that may wait for a process; one more is turned away at once with a retryable failure. */
  queueLimit: number;
  /** Processes are stopped after this long without work, and started again by the next conversion (0: never). */
  idleStopMs: number;
  /** Consecutive failed starts after which the engine reports unhealthy (readiness down). */
  failureThreshold: number;
}

interface Slot<Job> {
  index: number;
  process: EngineProcess<Job>;
  served: number;
  /** Set when the process must be (re)started before its next job; `cold` after an idle stop (not a restart). */
  needs?: RestartReason | 'cold';
  restarting?: Promise<void>;
}

interface Waiter<Job> {
  grant(slot: Slot<Job>): void;
  reject(error: Error): void;
}

const RETRY_START_MAX_MS = 30_000;
const live = new Set<EngineSupervisor<object>>();

// Gauges read the supervisors' state when /metrics is scraped, so they can never drift from it.
for (const [gauge, read] of [
  [engineMetrics.queueDepth, (supervisor: EngineSupervisor<object>) => supervisor.queueDepth],
  [engineMetrics.inFlight, (supervisor: EngineSupervisor<object>) => supervisor.inFlight],
  [engineMetrics.processesUp, (supervisor: EngineSupervisor<object>) => supervisor.processesUp],
  [engineMetrics.healthy, (supervisor: EngineSupervisor<object>) => (supervisor.isHealthy ? 1 : 0)],
] as const) {
  // prom-client calls `collect` on the gauge itself before each scrape.
  (gauge as unknown as { collect?: () => void }).collect = () => {
    gauge.reset();
    for (const supervisor of live) gauge.inc({ engine: supervisor.engine }, read(supervisor));
  };
}

/**
 * Keeps `size` long-lived engine processes and runs one conversion at a time
 * on each: a bounded queue in front (full: a fast, retryable refusal, so the
 * task comes back later), a time limit per conversion (the process is killed
 * and restarted; the next conversion gets a fresh one), a restart after
 * `maxConversions`, on a crash and on a hang, an idle stop, and health that
 * only turns bad after `failureThreshold` failed starts in a row, so a routine
 * restart never takes the converter out of service. Any engine that implements
 * `EngineProcess` gets all of it; LibreOffice is the first.
 */
export class EngineSupervisor<Job extends object> {
  private readonly logger: Logger;
  private slots: Slot<Job>[] = [];
  private idle: Slot<Job>[] = [];
  private waiters: Waiter<Job>[] = [];
  private running = 0;
  private failedStarts = 0;
  private started?: Promise<void>;
  private stopping = false;
  private idleTimer?: NodeJS.Timeout;
  private retryTimer?: NodeJS.Timeout;

  constructor(
    private readonly settings: EngineSupervisorSettings,
    private readonly createProcess: EngineProcessFactory<Job>,
  ) {
    this.logger = new Logger(`engine:${settings.engine}`);
  }

  get engine(): string {
    return this.settings.engine;
  }

  get queueDepth(): number {
    return this.waiters.length;
  }

  get inFlight(): number {
    return this.running;
  }

  get processesUp(): number {
    return this.slots.filter((slot) => slot.process.isAlive).length;
  }

  /** Started, not stopped, and below the failure threshold. An idle stop or a routine restart keeps it healthy. */
  get isHealthy(): boolean {
    return this.slots.length > 0 && !this.stopping && this.failedStarts < this.settings.failureThreshold;
  }

  /** Conversions each process has served since it last started (tests, logs). */
  servedCounts(): number[] {
    return this.slots.map((slot) => slot.served);
  }

  /** Process ids of the running processes, by slot (tests). */
  pids(): (number | undefined)[] {
    return this.slots.map((slot) => slot.process.pid);
  }

  /** Starts every process; rejects, leaving nothing running, when one cannot start. Safe to call more than once. */
  start(): Promise<void> {
    this.started ??= this.startAll().catch(async (error: unknown) => {
      await this.stop();
      this.started = undefined;
      throw error;
    });
    return this.started;
  }

  async run(job: Job, signal: AbortSignal): Promise<void> {
    await this.start();
    if (this.stopping) throw ServiceFailure.unavailable(`the ${this.settings.label} engine is stopping`);
    const slot = await this.acquire(signal);
    this.running += 1;
    clearTimeout(this.idleTimer);
    try {
      await this.ready(slot);
      slot.served += 1;
      await this.runWithinLimit(slot, job, signal);
    } finally {
      this.running -= 1;
      if (slot.served >= this.settings.maxConversions) slot.needs ??= 'max_conversions';
      this.release(slot);
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    live.delete(this);
    clearTimeout(this.idleTimer);
    clearTimeout(this.retryTimer);
    for (const waiter of this.waiters.splice(0)) waiter.reject(ServiceFailure.unavailable(`the ${this.settings.label} engine is stopping`));
    await Promise.all(this.slots.map((slot) => slot.process.stop()));
    this.idle = [];
  }

  private async startAll(): Promise<void> {
    this.stopping = false;
    this.failedStarts = 0;
    this.slots = Array.from({ length: this.settings.size }, (_, index) => {
      const slot: Slot<Job> = {
        index,
        served: 0,
        process: this.createProcess(index, { onUnexpectedExit: () => this.onCrash(slot) }),
      };
      return slot;
    });
    live.add(this);
    await Promise.all(
      this.slots.map((slot) =>
        slot.process.start().catch((error: unknown) => {
          engineMetrics.startFailures.inc({ engine: this.settings.engine });
          throw error;
        }),
      ),
    );
    this.idle = [...this.slots];
    this.logger.log({ size: this.settings.size }, `${this.settings.label} is warm`);
    this.armIdleStop();
  }

  /** An idle slot, or a place in the bounded queue; refused at once when the queue is full. */
  private acquire(signal: AbortSignal): Promise<Slot<Job>> {
    const slot = this.idle.shift();
    if (slot) return Promise.resolve(slot);
    if (this.waiters.length >= this.settings.queueLimit) {
      engineMetrics.rejected.inc({ engine: this.settings.engine });
      return Promise.reject(ServiceFailure.busy(`every ${this.settings.label} process is busy and ${this.waiters.length} conversions are waiting; the task will be retried`));
    }
    return new Promise<Slot<Job>>((resolve, reject) => {
      const onAbort = () => {
        this.waiters = this.waiters.filter((entry) => entry !== waiter);
        reject(ServiceFailure.unavailable(`the conversion was cancelled while waiting for ${this.settings.label}`));
      };
      const waiter: Waiter<Job> = {
        grant: (granted) => {
          signal.removeEventListener('abort', onAbort);
          resolve(granted);
        },
        reject: (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private release(slot: Slot<Job>): void {
    if (this.stopping) return;
    // Restart now (a killed, crashed or worn-out process), so the next conversion does not wait for it.
    if (slot.needs && slot.needs !== 'cold') void this.restart(slot).catch(() => undefined);
    const waiter = this.waiters.shift();
    if (waiter) waiter.grant(slot);
    else this.idle.push(slot);
    this.armIdleStop();
  }

  /** Waits for a restart in progress; (re)starts a process that is down, worn out or parked. */
  private async ready(slot: Slot<Job>): Promise<void> {
    if (slot.restarting) await slot.restarting.catch(() => undefined);
    if (!slot.process.isAlive) slot.needs ??= 'crash';
    if (slot.needs) await this.restart(slot);
  }

  /** One restart at a time per slot; a failed start counts towards the failure threshold and is retried with a back-off. */
  private restart(slot: Slot<Job>): Promise<void> {
    if (slot.restarting) return slot.restarting;
    const reason = slot.needs ?? 'crash';
    if (reason !== 'cold') {
      engineMetrics.restarts.inc({ engine: this.settings.engine, reason });
      this.logger.log({ slot: slot.index, reason, served: slot.served }, `restarting a ${this.settings.label} process`);
    }
    const restarting = (async () => {
      await slot.process.stop();
      if (this.stopping) throw ServiceFailure.unavailable(`the ${this.settings.label} engine is stopping`);
      try {
        await slot.process.start();
      } catch (error) {
        this.failedStarts += 1;
        engineMetrics.startFailures.inc({ engine: this.settings.engine });
        this.logger.warn({ err: error, slot: slot.index, failedStarts: this.failedStarts }, `a ${this.settings.label} process failed to start`);
        this.scheduleRetry(slot);
        throw error;
      }
      if (this.stopping) {
        await slot.process.stop();
        throw ServiceFailure.unavailable(`the ${this.settings.label} engine is stopping`);
      }
      slot.served = 0;
      slot.needs = undefined;
      this.failedStarts = 0;
    })().finally(() => {
      if (slot.restarting === restarting) slot.restarting = undefined;
    });
    slot.restarting = restarting;
    return restarting;
  }

  private scheduleRetry(slot: Slot<Job>): void {
    if (this.stopping) return;
    const delay = Math.min(RETRY_START_MAX_MS, 500 * 2 ** Math.min(this.failedStarts, 10));
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      if (!this.stopping && !slot.process.isAlive && !slot.restarting) void this.restart(slot).catch(() => undefined);
    }, delay);
    this.retryTimer.unref();
  }

  private onCrash(slot: Slot<Job>): void {
    slot.needs ??= 'crash';
    this.logger.warn({ slot: slot.index }, `${this.settings.label} exited unexpectedly`);
    // A busy slot is restarted when its conversion returns it; an idle one at once.
    if (this.idle.includes(slot) && !this.stopping) void this.restart(slot).catch(() => undefined);
  }

  /** The time limit: on expiry the process is killed (a running conversion cannot be withdrawn) and the slot restarted. */
  private runWithinLimit(slot: Slot<Job>, job: Job, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        slot.needs = 'hang';
        slot.process.kill();
        this.logger.warn({ slot: slot.index, timeoutMs: this.settings.timeoutMs }, `${this.settings.label} conversion timed out; restarting the process`);
        reject(ServiceFailure.validation(`${this.settings.label} did not finish within ${Math.round(this.settings.timeoutMs / 1000)} s`));
      }, this.settings.timeoutMs);
      slot.process.run(job, signal).then(
        () => {
          clearTimeout(timer);
          resolve();
        },
        (error: unknown) => {
          clearTimeout(timer);
          if (timedOut) return;
          if (!slot.process.isAlive) slot.needs ??= signal.aborted ? 'cancelled' : 'crash';
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  /** Stops every process once nothing has run for `idleStopMs`; the next conversion starts them again. */
  private armIdleStop(): void {
    clearTimeout(this.idleTimer);
    if (this.settings.idleStopMs <= 0 || this.stopping) return;
    this.idleTimer = setTimeout(() => {
      if (this.running > 0 || this.waiters.length > 0 || this.stopping) return;
      this.logger.log({ idleMs: this.settings.idleStopMs }, `stopping idle ${this.settings.label} processes`);
      for (const slot of this.slots) {
        if (slot.restarting) continue;
        slot.needs = 'cold';
        void slot.process.stop();
      }
    }, this.settings.idleStopMs);
    this.idleTimer.unref();
  }
}
