import { Logger } from '@nestjs/common';
import { create, fromBinary } from '@bufbuild/protobuf';
import type { JetStreamClient } from 'nats';
import { Counter, Histogram, register } from 'prom-client';
import {
  DeadLetterSources,
  ServiceFailure,
  Subjects,
  type TaskOutcome,
  TaskOutcomeSchema,
  type TaskSucceeded,
  type TaskWork,
  TaskWorkSchema,
  asServiceFailure,
} from '@transmute/contracts';
import { ConsumerRunner, type Delivery } from './consumer/consumer-runner';
import { Settle, type Settlement, retryThenDeadLetter } from './consumer/settlement';
import type { DeadLetterPublisher } from './dead-letters';
import type { WorkConsumerDefinition } from './jetstream-setup';
import { DelayedReport } from './delayed-report';
import { retryDelayMs } from './retry';
import type { WorkPublisher } from './work-publisher';

export interface TaskContext {
  /** Aborted when the service must release the task (shutdown past its grace period). */
  signal: AbortSignal;
  /** 1 on the first delivery of this message. */
  deliveryCount: number;
}

export type TaskHandler = (work: TaskWork, context: TaskContext) => Promise<TaskSucceeded>;

export interface TaskWorkRunnerOptions {
  consumer: WorkConsumerDefinition;
  concurrency: number;
  retryDelaysMs: readonly number[];
  /** How long a task runs before it is reported started; 0 reports it at once. */
  startedReportDelayMs?: number;
  handler: TaskHandler;
}

/** A report to the orchestrator that could not be published comes back this soon. */
const REPORT_RETRY_MS = 1_000;

const processed =
  (register.getSingleMetric('transmute_tasks_processed_total') as Counter<string>) ??
  new Counter({ name: 'transmute_tasks_processed_total', help: 'Task deliveries handled, by pool and outcome', labelNames: ['pool', 'outcome'] });
const duration =
  (register.getSingleMetric('transmute_task_duration_seconds') as Histogram<string>) ??
  new Histogram({
    name: 'transmute_task_duration_seconds',
    help: 'Time spent handling one task delivery',
    labelNames: ['pool'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  });

/**
 * A worker pool's consumer policy: reports started, succeeded and failed to
 * the orchestrator, retries retryable failures with the configured delays,
 * defers backpressure (a full engine never fails a task), and reports a
 * permanent failure (or the last retryable one) as the task's failure. The
 * ConsumerRunner turns each decision into the ack.
 */
export class TaskWorkRunner {
  private readonly logger: Logger;
  private readonly runner: ConsumerRunner<TaskWork>;
  private readonly pool: string;

  constructor(
    js: JetStreamClient,
    deadLetters: DeadLetterPublisher,
    private readonly publisher: WorkPublisher,
    private readonly options: TaskWorkRunnerOptions,
  ) {
    this.pool = options.consumer.durable;
    this.logger = new Logger(`work:${this.pool}`);
    const reportAgain = retryThenDeadLetter([REPORT_RETRY_MS], options.consumer.maxDeliver);
    this.runner = new ConsumerRunner<TaskWork>(js, deadLetters, {
      consumer: options.consumer,
      concurrency: options.concurrency,
      heartbeat: true,
      decode: (data) => fromBinary(TaskWorkSchema, data),
      handle: (delivery) => this.handle(delivery),
      // The handler's own failures are settled in `handle`; what reaches here is a report that could not be published.
      onError: (error, delivery) => reportAgain(error, delivery.deliveryCount),
      deadLetter: ({ value, seq, deliveryCount, reason, data }) => ({
        id: `task.${this.pool}.${seq}`,
        source: DeadLetterSources.workerPool(this.pool),
        kind: value ? 'task.report' : 'task.undecodable',
        subject: options.consumer.filterSubject,
        jobId: value?.jobId ?? '',
        taskName: value?.taskName ?? '',
        attempts: deliveryCount,
        error: reason,
        payload: data,
      }),
    });
  }

  start(): Promise<void> {
    return this.runner.start();
  }

  /** Stops pulling; waits up to `graceMs` for in-flight work, then releases it for immediate redelivery. */
  stop(graceMs: number): Promise<void> {
    return this.runner.stop(graceMs);
  }

  private async handle({ value: work, deliveryCount, signal }: Delivery<TaskWork>): Promise<Settlement> {
    const ref = { jobId: work.jobId, taskName: work.taskName, attempt: work.attempt };
    const stopTimer = duration.startTimer({ pool: this.pool });
    // A task done within the delay reports only its end: for small files that saves the orchestrator a
    // step, a store write and a status event per task. A longer one is reported started as before.
    const started = new DelayedReport(this.options.startedReportDelayMs ?? 0, () =>
      this.report(create(TaskOutcomeSchema, { ...ref, outcome: { case: 'started', value: {} } }), `started.${deliveryCount}`),
    );
    try {
      await started.dueNow();
      let succeeded: TaskSucceeded;
      try {
        succeeded = await this.options.handler(work, { signal, deliveryCount });
      } catch (error) {
        await started.settle();
        return await this.failed(work, deliveryCount, signal, error);
      }
      await started.settle();
      await this.report(create(TaskOutcomeSchema, { ...ref, outcome: { case: 'succeeded', value: succeeded } }), 'done');
      processed.inc({ pool: this.pool, outcome: 'succeeded' });
      return Settle.ack();
    } finally {
      stopTimer();
    }
  }

  private async failed(work: TaskWork, deliveryCount: number, signal: AbortSignal, error: unknown): Promise<Settlement> {
    if (signal.aborted) {
      processed.inc({ pool: this.pool, outcome: 'released' });
      return Settle.release();
    }
    const failure = asServiceFailure(error);
    const where = `${work.jobId}/${work.taskName} (delivery ${deliveryCount})`;
    if (failure.backpressure) {
      // The process is full, the task did nothing wrong: it comes back later and is never failed for it.
      const delay = retryDelayMs(this.options.retryDelaysMs, 1);
      this.logger.log(`${where} deferred for ${delay} ms: ${failure.message}`);
      processed.inc({ pool: this.pool, outcome: 'deferred' });
      return Settle.defer(delay);
    }
    if (failure.retryable && deliveryCount < this.options.consumer.maxDeliver) {
      const delay = retryDelayMs(this.options.retryDelaysMs, deliveryCount);
      this.logger.warn({ err: failure.cause ?? failure }, `${where} failed, retrying in ${delay} ms: ${failure.message}`);
      processed.inc({ pool: this.pool, outcome: 'retried' });
      return Settle.retry(delay);
    }
    this.logger.warn({ err: failure.cause ?? failure }, `${where} failed: ${failure.message}`);
    const reported = failure.retryable ? new ServiceFailure(failure.code, `${failure.message} (gave up after ${deliveryCount} attempts)`) : failure;
    // A report that cannot be published throws: the runner brings the message back and the report is made again.
    await this.report(
      create(TaskOutcomeSchema, { jobId: work.jobId, taskName: work.taskName, attempt: work.attempt, outcome: { case: 'failed', value: { error: reported.toMessage() } } }),
      'done',
    );
    processed.inc({ pool: this.pool, outcome: 'failed' });
    return Settle.ack();
  }

  private report(outcome: TaskOutcome, kind: string): Promise<void> {
    const msgId = `${outcome.jobId}.${outcome.taskName}.${outcome.attempt}.${kind}`;
    return this.publisher.publish(Subjects.tasksOutcomes, TaskOutcomeSchema, outcome, msgId);
  }
}
