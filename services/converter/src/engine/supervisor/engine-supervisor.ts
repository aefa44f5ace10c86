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
  /** Consecutive failed starts after which the engine reports not ready. */
  failureThreshold: number;
}

/** What `/readyz` and the logs say about one engine. */
export interface EngineReadiness {
  ready: boolean;
  detail: string;
}

interface Slot<Job> {
  index: number;
  process: EngineProcess<Job>;
  served: number;
  /** Set when the process must be (re)started before its next job; `cold` after an idle stop (not a restart). */
  needs?: RestartReason | 'cold';
  restarting?: Promise<void>;
  /** Its last start failed: out of rotation until a retry brings it up. */
  benched: boolean;
  /** Failed starts of this slot since it last came up (its back-off). */
  failedStarts: number;
  retryTimer?: NodeJS.Timeout;
  nextRetryAt?: number;
}

interface Waiter<Job> {
  grant(slot: Slot<Job>): void;
  reject(error: Error): void;
}

const RETRY_START_FIRST_MS = 1_000;
const RETRY_START_MAX_MS = 30_000;

/** Wait before the next try of a slot whose start failed `failures` times in a row: 1 s, doubling, at most 30 s. */
export function startRetryDelayMs(failures: number): number {
  return Math.min(RETRY_START_MAX_MS, RETRY_START_FIRST_MS * 2 ** Math.max(0, failures - 1));
}

const live = new Set<EngineSupervisor<object>>();

// Gauges read the supervisors' state when /metrics is scraped, so they can never drift from it.
for (const [gauge, read] of [
  [engineMetrics.queueDepth, (supervisor: EngineSupervisor<object>) => supervisor.queueDepth],
  [engineMetrics.inFlight, (supervisor: EngineSupervisor<object>) => supervisor.inFlight],
  [engineMetrics.processesUp, (supervisor: EngineSupervisor<object>) => supervisor.processesUp],
  [engineMetrics.healthy, (supervisor: EngineSupervisor<object>) => (supervisor.isReady ? 1 : 0)],
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
 * `maxConversions`, on a crash and on a hang, and an idle stop.
 *
 * A process that fails to start never takes anything down with it: its slot
 * leaves the rotation and is started again with a growing back-off, for as
 * long as the supervisor runs, while the other slots (and whatever else the
 * converter does without this engine) keep working. The engine is ready once
 * a process has come up, and stays ready through routine restarts until
 * `failureThreshold` starts in a row have failed. Any engine that implements
 * `EngineProcess` gets all of it; LibreOffice is the first.
 */
export class EngineSupervisor<Job extends object> {
  private readonly logger: Logger;
  private slots: Slot<Job>[] = [];
  private idle: Slot<Job>[] = [];
  private waiters: Waiter<Job>[] = [];
  private running = 0;
  /** Failed starts in a row, any slot; a successful start resets it. */
  private failedStarts = 0;
  private lastStartFailure?: string;
  /** A process came up since `start()`: before that the engine is not ready. */
  private cameUp = false;
  private started?: Promise<void>;
  private stopping = false;
  private idleTimer?: NodeJS.Timeout;

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

  /** A process came up, nothing is stopping, and fewer than `failureThreshold` starts in a row failed. An idle stop or a routine restart keeps it ready. */
  get isReady(): boolean {
    return this.cameUp && !this.stopping && this.failedStarts < this.settings.failureThreshold;
  }

  /** Ready or not, and why, in words an operator reads on `/readyz`. */
  readiness(): EngineReadiness {
    const { label } = this.settings;
    if (this.stopping || !this.started) return { ready: false, detail: `${label} is not running` };
    const retry = this.nextRetryInMs();
    const failure = `${this.failedStarts} start(s) in a row failed, the last with: ${this.lastStartFailure ?? 'unknown error'}${retry === undefined ? '' : `; next try in ${Math.ceil(retry / 1000)} s`}`;
    if (this.isReady) return { ready: true, detail: `${label}: ${this.processesUp} of ${this.settings.size} process(es) up` };
    if (!this.cameUp) return { ready: false, detail: this.failedStarts === 0 ? `${label} is starting` : `${label} has not come up yet: ${failure}` };
    return { ready: false, detail: `${label} is down: ${failure}` };
  }

  /** Conversions each process has served since it last started (tests, logs). */
  servedCounts(): number[] {
    return this.slots.map((slot) => slot.served);
  }

  /** Process ids of the running processes, by slot (tests). */
  pids(): (number | undefined)[] {
    return this.slots.map((slot) => slot.process.pid);
  }

  /**
   * Starts every process and resolves once each has come up or failed its
   * first try; never rejects: a slot that failed is retried in the
   * background. Safe to call more than once.
   */
  start(): Promise<void> {
    this.started ??= this.startAll();
    return this.started;
  }

  async run(job: Job, signal: AbortSignal): Promise<void> {
    await this.start();
    if (this.stopping) throw this.stoppingFailure();
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
    for (const slot of this.slots) clearTimeout(slot.retryTimer);
    for (const waiter of this.waiters.splice(0)) waiter.reject(this.stoppingFailure());
    // A restart in flight ends once its process is stopped; waiting for it means nothing runs, or starts, after this resolves.
    await Promise.all(
      this.slots.map(async (slot) => {
        await slot.process.stop();
        await slot.restarting?.catch(() => undefined);
      }),
    );
    this.idle = [];
  }

  private async startAll(): Promise<void> {
    this.stopping = false;
    this.failedStarts = 0;
    this.cameUp = false;
    this.slots = Array.from({ length: this.settings.size }, (_, index) => {
      const slot: Slot<Job> = {
        index,
        served: 0,
        benched: false,
        failedStarts: 0,
        needs: 'cold',
        process: this.createProcess(index, { onUnexpectedExit: () => this.onCrash(slot) }),
      };
      return slot;
    });
    this.idle = [];
    live.add(this);
    // Each slot joins the rotation as soon as it is up; one that fails is benched and retried alone.
    await Promise.all(
      this.slots.map((slot) =>
        this.restart(slot).then(
          () => this.release(slot),
          () => undefined,
        ),
      ),
    );
    if (this.processesUp > 0) this.logger.log({ size: this.settings.size, up: this.processesUp }, `${this.settings.label} is warm`);
  }

  /** An idle slot, or a place in the bounded queue; refused at once when the queue is full or no slot can serve. */
  private acquire(signal: AbortSignal): Promise<Slot<Job>> {
    const slot = this.idle.shift();
    if (slot) return Promise.resolve(slot);
    if (this.slots.every((candidate) => candidate.benched)) {
      // Waiting would hold a worker for a back-off of up to 30 s: the task comes back instead.
      return Promise.reject(ServiceFailure.unavailable(`${this.settings.label} is not running: ${this.readiness().detail}`));
    }
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

  /** Puts a slot back in rotation (a waiter gets it first); a benched slot waits for its retry instead. */
  private release(slot: Slot<Job>): void {
    if (this.stopping || slot.benched) {
      this.rejectWaitersIfNoneCanServe();
      return;
    }
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
    // The restart it waited for failed: the slot's own retry brings it back, not this conversion.
    if (slot.benched) throw ServiceFailure.unavailable(`${this.settings.label} is not running: ${this.readiness().detail}`);
    if (!slot.process.isAlive) slot.needs ??= 'crash';
    if (slot.needs) await this.restart(slot);
  }

  /** One (re)start at a time per slot. A failed start benches the slot and schedules its retry with a back-off. */
  private restart(slot: Slot<Job>): Promise<void> {
    if (slot.restarting) return slot.restarting;
    const reason = slot.needs ?? 'crash';
    if (reason !== 'cold') {
      engineMetrics.restarts.inc({ engine: this.settings.engine, reason });
      this.logger.log({ slot: slot.index, reason, served: slot.served }, `restarting a ${this.settings.label} process`);
    }
    const restarting = (async () => {
      await slot.process.stop();
      if (this.stopping) throw this.stoppingFailure();
      try {
        await slot.process.start();
      } catch (error) {
        if (this.stopping) throw this.stoppingFailure();
        this.onFailedStart(slot, error);
        throw error;
      }
      if (this.stopping) {
        await slot.process.stop();
        throw this.stoppingFailure();
      }
      this.onStarted(slot);
    })().finally(() => {
      if (slot.restarting === restarting) slot.restarting = undefined;
    });
    slot.restarting = restarting;
    return restarting;
  }

  private onStarted(slot: Slot<Job>): void {
    const recovered = slot.benched;
    slot.served = 0;
    slot.needs = undefined;
    slot.benched = false;
    slot.failedStarts = 0;
    slot.nextRetryAt = undefined;
    this.failedStarts = 0;
    this.cameUp = true;
    if (recovered) {
      this.logger.log({ slot: slot.index }, `a ${this.settings.label} process came up after failed starts`);
      this.release(slot);
    }
  }

  private onFailedStart(slot: Slot<Job>, error: unknown): void {
    slot.failedStarts += 1;
    this.failedStarts += 1;
    this.lastStartFailure = error instanceof Error ? error.message : String(error);
    engineMetrics.startFailures.inc({ engine: this.settings.engine });
    // Out of rotation: it comes back through its retry, not through a conversion that would meet the same failure.
    this.idle = this.idle.filter((candidate) => candidate !== slot);
    slot.benched = true;
    slot.needs = 'crash';
    const delay = startRetryDelayMs(slot.failedStarts);
    this.logger.warn(
      { slot: slot.index, failedStarts: this.failedStarts, retryInMs: delay, err: error },
      `a ${this.settings.label} process failed to start; trying again in ${Math.ceil(delay / 1000)} s`,
    );
    this.scheduleRetry(slot, delay);
    this.rejectWaitersIfNoneCanServe();
  }

  private scheduleRetry(slot: Slot<Job>, delayMs: number): void {
    if (this.stopping) return;
    clearTimeout(slot.retryTimer);
    slot.nextRetryAt = Date.now() + delayMs;
    slot.retryTimer = setTimeout(() => {
      if (!this.stopping && slot.benched && !slot.restarting) void this.restart(slot).catch(() => undefined);
    }, delayMs);
    slot.retryTimer.unref();
  }

  /** Conversions waiting while every slot is benched would wait for a back-off: they are sent back instead. */
  private rejectWaitersIfNoneCanServe(): void {
    if (this.waiters.length === 0 || !this.slots.every((slot) => slot.benched || this.stopping)) return;
    const failure = this.stopping ? this.stoppingFailure() : ServiceFailure.unavailable(`${this.settings.label} is not running: ${this.readiness().detail}`);
    for (const waiter of this.waiters.splice(0)) waiter.reject(failure);
  }

  private nextRetryInMs(): number | undefined {
    const times = this.slots.map((slot) => slot.nextRetryAt).filter((at): at is number => at !== undefined);
    return times.length === 0 ? undefined : Math.max(0, Math.min(...times) - Date.now());
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
        if (slot.restarting || slot.benched) continue;
        slot.needs = 'cold';
        void slot.process.stop();
      }
    }, this.settings.idleStopMs);
    this.idleTimer.unref();
  }

  private stoppingFailure(): ServiceFailure {
    return ServiceFailure.unavailable(`the ${this.settings.label} engine is stopping`);
  }
}
