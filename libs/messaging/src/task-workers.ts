import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { z } from 'zod';
import { type ConfigOf, envVar, positiveInt } from '@transmute/service-kit';
import type { WorkStreamDefinition } from '@transmute/contracts';
import { JetStreamSetup } from './jetstream-setup';
import { DeadLetterPublisher } from './dead-letters';
import { type TaskHandler, TaskWorkRunner } from './task-work-runner';
import { NATS_CONNECTION } from './tokens';
import { WorkPublisher } from './work-publisher';

const delayList = z
  .string()
  .regex(/^\d+(,\d+)*$/, { message: 'expected comma-separated milliseconds, e.g. 1000,5000,30000' })
  .transform((value) => value.split(',').map(Number));

/** Variables of every task worker pool (importer, converter, exporter). */
export function workerConfig(defaults: { concurrency: number; ackWaitMs: number }) {
  return {
    workerConcurrency: envVar('TRANSMUTE_WORKER_CONCURRENCY', positiveInt().default(defaults.concurrency), 'Tasks one process runs at once.'),
    ackWaitMs: envVar(
      'TRANSMUTE_ACK_WAIT_MS',
      z.coerce.number().int().min(1_000).default(defaults.ackWaitMs),
      'Silence after which JetStream hands a task to another worker; running tasks keep it alive every third of it.',
    ),
    maxDeliver: envVar('TRANSMUTE_MAX_DELIVER', positiveInt().default(5), 'Deliveries of one task message before it fails for good.'),
    retryDelaysMs: envVar('TRANSMUTE_RETRY_DELAYS_MS', delayList.default([1_000, 5_000, 30_000, 60_000]), 'Delay before each redelivery of a retryable failure.'),
    startedReportDelayMs: envVar(
      'TRANSMUTE_STARTED_REPORT_DELAY_MS',
      z.coerce.number().int().min(0).default(500),
      'A task still running this long is reported started (the job shows converting), and a conversion sends progress only from then on; one done sooner reports only its end. 0 reports every start and all progress.',
    ),
  };
}
export type WorkerConfig = ConfigOf<ReturnType<typeof workerConfig>>;

export interface TaskWorkerOptions {
  stream: WorkStreamDefinition;
  durable: string;
  filterSubject: string;
  config: WorkerConfig;
  handler: TaskHandler;
}

/** Builds a worker pool's consumer (idempotently) and starts its runner. */
@Injectable()
export class TaskWorkers {
  constructor(
    private readonly setup: JetStreamSetup,
    private readonly publisher: WorkPublisher,
    private readonly deadLetters: DeadLetterPublisher,
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
  ) {}

  async start(options: TaskWorkerOptions): Promise<TaskWorkRunner> {
    const consumer = {
      stream: options.stream,
      durable: options.durable,
      filterSubject: options.filterSubject,
      ackWaitMs: options.config.ackWaitMs,
      maxDeliver: options.config.maxDeliver,
    };
    // Ensures the stream too.
    await this.setup.ensureWorkConsumer(consumer);
    const runner = new TaskWorkRunner(this.connection.jetstream(), this.deadLetters, this.publisher, {
      consumer,
      concurrency: options.config.workerConcurrency,
      retryDelaysMs: options.config.retryDelaysMs,
      startedReportDelayMs: options.config.startedReportDelayMs,
      handler: options.handler,
    });
    await runner.start();
    return runner;
  }
}
