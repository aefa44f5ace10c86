import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { fromBinary } from '@bufbuild/protobuf';
import type { NatsConnection } from 'nats';
import { Consumers, Streams, Subjects, TaskOutcomeSchema, asServiceFailure } from '@transmute/contracts';
import { JetStreamSetup, NATS_CONNECTION, PullWorker, type WorkConsumerDefinition } from '@transmute/messaging';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { OrchestratorConfig } from '../config';
import { OutcomeService } from './outcome.service';

/** Feeds workers' reports from `tasks.outcomes` to the OutcomeService. */
@Injectable()
export class OutcomeConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(OutcomeConsumer.name);
  private worker?: PullWorker;

  constructor(
    private readonly outcomes: OutcomeService,
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
      maxDeliver: -1,
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
        // The job store is away: the report stays in the stream until it can be recorded.
        this.logger.warn({ err: asServiceFailure(error).cause ?? error, jobId: outcome.jobId }, 'outcome not recorded yet');
        message.nak(2_000);
      }
    });
    await this.worker.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.stop(this.config.shutdownGraceMs);
  }
}
