import { Inject, Injectable } from '@nestjs/common';
import { type DescMessage, type MessageShape, toBinary } from '@bufbuild/protobuf';
import type { JetStreamClient, NatsConnection } from 'nats';
import { requestIdHeaders } from './request-id-headers';
import { NATS_CONNECTION } from './tokens';

/**
 * Publishes typed messages to JetStream; `msgId` lets the stream drop a
 * repeated publish. The current request id, if any, travels in the headers.
 */
@Injectable()
export class WorkPublisher {
  private readonly js: JetStreamClient;

  constructor(@Inject(NATS_CONNECTION) connection: NatsConnection) {
    this.js = connection.jetstream();
  }

  async publish<D extends DescMessage>(subject: string, schema: D, message: MessageShape<D>, msgId: string): Promise<void> {
    const headers = requestIdHeaders();
    await this.js.publish(subject, toBinary(schema, message), { msgID: msgId, ...(headers && { headers }) });
  }

  /**
   * `publish`, tried `attempts` times with a linearly growing pause, for
   * publishes nothing else would repeat; throws the last error. The message id
   * makes a retry of a publish that did land a duplicate the stream drops.
   */
  async publishWithRetry<D extends DescMessage>(subject: string, schema: D, message: MessageShape<D>, msgId: string, retry: { attempts: number; delayMs: number }): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.publish(subject, schema, message, msgId);
      } catch (error) {
        if (attempt >= retry.attempts) throw error;
        await new Promise((resolve) => setTimeout(resolve, retry.delayMs * attempt));
      }
    }
  }
}
