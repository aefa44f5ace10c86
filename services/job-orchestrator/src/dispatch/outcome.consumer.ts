import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { fromBinary } from '@bufbuild/protobuf';
import type { NatsConnection } from 'nats';
import { Consumers, DeadLetterSources, Streams, Subjects, type TaskOutcome, TaskOutcomeSchema, asServiceFailure } from '@transmute/contracts';
import { DeadLetterPublisher, JetStreamSetup, NATS_CONNECTION, PullWorker, type WorkConsumerDefinition } from '@transmute/messaging';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { OrchestratorConfig } from '../config';
import { OutcomeService } from './outcome.service';

/** Waits before each redelivery of an outcome that could not be recorded (the last one repeats). */
const REDELIVERY_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 30_000, 60_000];

/**
 * Feeds workers' reports from `tasks.outcomes` to the OutcomeService. An
 * outcome that cannot be recorded is tried again with growing delays, at
 * most TRANSMUTE_OUTCOME_MAX_DELIVER times; then it becomes a dead letter and
 * its task fails with a message that says so, so redelivery never goes on
 * forever and the job still ends.
 */
@Injectable()
export class OutcomeConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(OutcomeConsumer.name);
  private worker?: PullWorker;

  constructor(
    private readonly outcomes: OutcomeService,
    private readonly deadLetters: DeadLetterPublisher,
    private readonly jetstream: JetStreamSetup,
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
    @Inject(SERVICE_CONFIG) private readonly config: OrchestratorConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const definition: WorkConsumerDefinition = {
      stream: Streams.outcomes,
      durable: Consumers.orchestrator,
      filterSubject: Subjects.tasksOutcomes,
      ackWaitMs: this.config.outcomeAckWaitMs,
      maxDeliver: this.config.outcomeMaxDeliver,
    };
    // The orchestrator also creates the work stream, so dispatch never publishes into nothing.
    await this.jetstream.ensureStream(Streams.tasks);
    await this.jetstream.ensureWorkConsumer(definition);
    this.worker = new PullWorker(this.connection.jetstream(), definition, this.config.outcomeConcurrency, async (message) => {
      let outcome;
      try {
        outcome = fromBinary(TaskOutcomeSchema, message.data);
      } catch (error) {
        this.logger.error(`dropping undecodable outcome ${message.seq}: ${(error as Error).message}`);
        message.term();
        return;
      }
      try {
        await this.outcomes.apply(outcome);
        message.ack();
      } catch (error) {
        const deliveries = message.info.redeliveryCount;
        if (deliveries < this.config.outcomeMaxDeliver) {
          // The job store or the accounts module is away: the report stays in the stream until it can be recorded.
          this.logger.warn({ err: asServiceFailure(error).cause ?? error, jobId: outcome.jobId, deliveries }, 'outcome not recorded yet');
          message.nak(REDELIVERY_DELAYS_MS[Math.min(deliveries, REDELIVERY_DELAYS_MS.length) - 1]);
          return;
        }
        await this.giveUp(outcome, message.data, deliveries, error).then(
          () => message.ack(),
          (deadLetterError: unknown) => {
            this.logger.error({ err: deadLetterError, jobId: outcome.jobId }, 'could not record a dead letter; keeping the outcome');
            message.nak(REDELIVERY_DELAYS_MS.at(-1));
          },
        );
      }
    });
    await this.worker.start();
  }

  private async giveUp(outcome: TaskOutcome, payload: Uint8Array, deliveries: number, error: unknown): Promise<void> {
    const reason = asServiceFailure(error).message;
    await this.deadLetters.publish({
      id: `outcome.${outcome.jobId}.${outcome.taskName}.${outcome.attempt}.${outcome.outcome.case ?? 'none'}`,
      source: DeadLetterSources.orchestrator,
      kind: 'outcome',
      subject: Subjects.tasksOutcomes,
      jobId: outcome.jobId,
      taskName: outcome.taskName,
      attempts: deliveries,
      error: reason,
      payload,
    });
    this.logger.error({ jobId: outcome.jobId, task: outcome.taskName, deliveries, reason }, 'outcome dead-lettered');
    // The task cannot move on without it: fail it, saying why, so the job still ends.
    await this.outcomes
      .failTask(outcome.jobId, outcome.taskName, `the orchestrator could not record this task's outcome after ${deliveries} tries: ${reason}`)
      .catch((failError: unknown) => this.logger.error({ err: failError, jobId: outcome.jobId }, 'could not fail the task of a dead-lettered outcome; the reconciler will'));
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.stop(this.config.shutdownGraceMs);
  }
}
