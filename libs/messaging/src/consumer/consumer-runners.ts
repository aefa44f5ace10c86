import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { DeadLetterPublisher } from '../dead-letters';
import { JetStreamSetup } from '../jetstream-setup';
import { NATS_CONNECTION } from '../tokens';
import { ConsumerRunner, type ConsumerPolicy } from './consumer-runner';

/** Ensures a consumer's stream and durable consumer (idempotently) and starts its runner. */
@Injectable()
export class ConsumerRunners {
  constructor(
    private readonly setup: JetStreamSetup,
    private readonly deadLetters: DeadLetterPublisher,
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
  ) {}

  async start<T>(policy: ConsumerPolicy<T>): Promise<ConsumerRunner<T>> {
    await this.setup.ensureWorkConsumer(policy.consumer);
    const runner = new ConsumerRunner(this.connection.jetstream(), this.deadLetters, policy);
    await runner.start();
    return runner;
  }
}
