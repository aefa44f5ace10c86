import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { fromBinary } from '@bufbuild/protobuf';
import { Consumers, DeadLetterSources, Streams, Subjects, type TaskOutcome, TaskOutcomeSchema, asServiceFailure } from '@transmute/contracts';
import { type ConsumerRunner, ConsumerRunners, type GivenUp, JetStreamSetup, Settle, retryThenDeadLetter } from '@transmute/messaging';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { OrchestratorConfig } from '../config';
import { OutcomeService } from './outcome.service';

/** Waits before each redelivery of an outcome that could not be recorded (the last one repeats). */
const REDELIVERY_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 30_000, 60_000];

/**
 * Feeds workers' reports from `tasks.outcomes` to the OutcomeService. An
 * outcome that cannot be recorded (the job store or the accounts module is
 * away) is tried again with growing delays, at most
 * TRANSMUTE_OUTCOME_MAX_DELIVER times; then it becomes a dead letter and its
 * task fails with a message that says so, so redelivery never goes on
 * forever and the job still ends.
 */
@Injectable()
export class OutcomeConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(OutcomeConsumer.name);
  private runner?: ConsumerRunner<TaskOutcome>;

  constructor(
    private readonly outcomes: OutcomeService,
    private readonly consumers: ConsumerRunners,
    private readonly jetstream: JetStreamSetup,
    @Inject(SERVICE_CONFIG) private readonly config: OrchestratorConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // The orchestrator also creates the work stream, so dispatch never publishes into nothing.
    await this.jetstream.ensureStream(Streams.tasks);
    const retryOrGiveUp = retryThenDeadLetter(REDELIVERY_DELAYS_MS, this.config.outcomeMaxDeliver);
    this.runner = await this.consumers.start<TaskOutcome>({
      consumer: {
        stream: Streams.outcomes,
        durable: Consumers.orchestrator,
        filterSubject: Subjects.tasksOutcomes,
        ackWaitMs: this.config.outcomeAckWaitMs,
        maxDeliver: this.config.outcomeMaxDeliver,
      },
      concurrency: this.config.outcomeConcurrency,
      decode: (data) => fromBinary(TaskOutcomeSchema, data),
      handle: async ({ value }) => {
        await this.outcomes.apply(value);
        return Settle.ack();
      },
      onError: (error, { value, deliveryCount }) => {
        const failure = asServiceFailure(error);
        this.logger.warn({ err: failure.cause ?? error, jobId: value.jobId, deliveries: deliveryCount }, 'outcome not recorded yet');
        return retryOrGiveUp(failure, deliveryCount);
      },
      deadLetter: ({ value, seq, data, deliveryCount, reason }) => ({
        id: value ? `outcome.${value.jobId}.${value.taskName}.${value.attempt}.${value.outcome.case ?? 'none'}` : `outcome.seq.${seq}`,
        source: DeadLetterSources.orchestrator,
        kind: value ? 'outcome' : 'outcome.undecodable',
        subject: Subjects.tasksOutcomes,
        jobId: value?.jobId ?? '',
        taskName: value?.taskName ?? '',
        attempts: deliveryCount,
        error: reason,
        payload: data,
      }),
      afterDeadLetter: (givenUp) => this.failTaskOf(givenUp),
    });
  }

  /** The task cannot move on without its outcome: fail it, saying why, so the job still ends. */
  private async failTaskOf({ value: outcome, deliveryCount, reason }: GivenUp<TaskOutcome>): Promise<void> {
    if (!outcome) return;
    this.logger.error({ jobId: outcome.jobId, task: outcome.taskName, deliveries: deliveryCount, reason }, 'outcome dead-lettered');
    await this.outcomes
      .failTask(outcome.jobId, outcome.taskName, outcome.attempt, `the orchestrator could not record this task's outcome after ${deliveryCount} tries: ${reason}`)
      .catch((failError: unknown) => this.logger.error({ err: failError, jobId: outcome.jobId }, 'could not fail the task of a dead-lettered outcome; the reconciler will'));
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.runner?.stop(this.config.shutdownGraceMs);
  }
}
