import { Logger } from '@nestjs/common';
import { create, fromBinary } from '@bufbuild/protobuf';
import type { JetStreamClient, JsMsg } from 'nats';
import { Counter, Histogram, register } from 'prom-client';
import { ServiceFailure, Subjects, type TaskOutcome, TaskOutcomeSchema, type TaskSucceeded, type TaskWork, TaskWorkSchema, asServiceFailure } from '@transmute/contracts';
import type { WorkConsumerDefinition } from './jetstream-setup';
import { PullWorker } from './pull-worker';
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
  handler: TaskHandler;
}

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
 * The one place where task outcomes become JetStream acks. Pulls one message
 * per free slot (nothing waits in a local buffer while a slot is busy), keeps
 * long work alive with `working()`, reports started/succeeded/failed to the
 * orchestrator, naks retryable failures with a delay and reports permanent ones.
 */
export class TaskWorkRunner {
  private readonly logger: Logger;
  private readonly worker: PullWorker;

  constructor(
    private readonly js: JetStreamClient,
    private readonly publisher: WorkPublisher,
    private readonly options: TaskWorkRunnerOptions,
  ) {
    this.logger = new Logger(`work:${options.consumer.durable}`);
    this.worker = new PullWorker(js, options.consumer, options.concurrency, (message, signal) => this.process(message, signal));
  }

  start(): Promise<void> {
    return this.worker.start();
  }

  /** Stops pulling; waits up to `graceMs` for in-flight work, then releases it for immediate redelivery. */
  stop(graceMs: number): Promise<void> {
    return this.worker.stop(graceMs);
  }

  private async process(message: JsMsg, signal: AbortSignal): Promise<void> {
    const pool = this.options.consumer.durable;
    let work: TaskWork;
    try {
      work = fromBinary(TaskWorkSchema, message.data);
    } catch (error) {
      this.logger.error(`dropping undecodable message ${message.seq}: ${(error as Error).message}`);
      message.term();
      processed.inc({ pool, outcome: 'undecodable' });
      return;
    }
    const deliveryCount = message.info.deliveryCount;
    const ref = { jobId: work.jobId, taskName: work.taskName, attempt: work.attempt };
    const heartbeat = setInterval(() => message.working(), Math.max(500, this.options.consumer.ackWaitMs / 3));
    const stopTimer = duration.startTimer({ pool });
    try {
      await this.report(create(TaskOutcomeSchema, { ...ref, outcome: { case: 'started', value: {} } }), `started.${deliveryCount}`);
      const succeeded = await this.options.handler(work, { signal, deliveryCount });
      await this.report(create(TaskOutcomeSchema, { ...ref, outcome: { case: 'succeeded', value: succeeded } }), 'done');
      message.ack();
      processed.inc({ pool, outcome: 'succeeded' });
    } catch (error) {
      await this.settleFailure(message, work, error, signal);
    } finally {
      clearInterval(heartbeat);
      stopTimer();
    }
  }

  private async settleFailure(message: JsMsg, work: TaskWork, error: unknown, signal: AbortSignal): Promise<void> {
    const pool = this.options.consumer.durable;
    const deliveryCount = message.info.deliveryCount;
    if (signal.aborted) {
      message.nak();
      processed.inc({ pool, outcome: 'released' });
      return;
    }
    const failure = asServiceFailure(error);
    const where = `${work.jobId}/${work.taskName} (delivery ${deliveryCount})`;
    if (failure.backpressure) return this.deferBusy(message, where, failure);
    if (failure.retryable && deliveryCount < this.options.consumer.maxDeliver) {
      const delay = retryDelayMs(this.options.retryDelaysMs, deliveryCount);
      this.logger.warn({ err: failure.cause ?? failure }, `${where} failed, retrying in ${delay} ms: ${failure.message}`);
      message.nak(delay);
      processed.inc({ pool, outcome: 'retried' });
      return;
    }
    this.logger.warn({ err: failure.cause ?? failure }, `${where} failed: ${failure.message}`);
    const reported = failure.retryable ? new ServiceFailure(failure.code, `${failure.message} (gave up after ${deliveryCount} attempts)`) : failure;
    try {
      await this.report(
        create(TaskOutcomeSchema, {
          jobId: work.jobId,
          taskName: work.taskName,
          attempt: work.attempt,
          outcome: { case: 'failed', value: { error: reported.toMessage() } },
        }),
        'done',
      );
      message.ack();
      processed.inc({ pool, outcome: 'failed' });
    } catch (reportError) {
      // The outcome could not be recorded: keep the message so the report is retried.
      this.logger.error(`could not report failure of ${where}: ${(reportError as Error).message}`);
      message.nak(1_000);
    }
  }

  /**
   * The process is full, the task did nothing wrong: it comes back later and
   * is never failed for it. Naked with a delay while JetStream has deliveries
   * left; on the last one it is published again as a fresh message (its own
   * delivery count) and the spent one acknowledged.
   */
  private async deferBusy(message: JsMsg, where: string, failure: ServiceFailure): Promise<void> {
    const pool = this.options.consumer.durable;
    const delay = retryDelayMs(this.options.retryDelaysMs, 1);
    const { maxDeliver } = this.options.consumer;
    if (maxDeliver < 0 || message.info.deliveryCount < maxDeliver) {
      this.logger.log(`${where} deferred for ${delay} ms: ${failure.message}`);
      message.nak(delay);
      processed.inc({ pool, outcome: 'deferred' });
      return;
    }
    try {
      // No message id: the original's would be dropped as a duplicate within the stream's window.
      await this.js.publish(message.subject, message.data);
      message.ack();
      this.logger.log(`${where} re-queued as a fresh message: ${failure.message}`);
      processed.inc({ pool, outcome: 'deferred' });
    } catch (publishError) {
      this.logger.warn(`could not re-queue ${where}: ${(publishError as Error).message}`);
      message.nak(delay);
    }
  }

  private report(outcome: TaskOutcome, kind: string): Promise<void> {
    const msgId = `${outcome.jobId}.${outcome.taskName}.${outcome.attempt}.${kind}`;
    return this.publisher.publish(Subjects.tasksOutcomes, TaskOutcomeSchema, outcome, msgId);
  }
}
