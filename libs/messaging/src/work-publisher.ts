import { Inject, Injectable } from '@nestjs/common';
import { type DescMessage, type MessageShape, toBinary } from '@bufbuild/protobuf';
import type { JetStreamClient, NatsConnection } from 'nats';
import { NATS_CONNECTION } from './tokens';

/** Publishes typed messages to JetStream; `msgId` lets the stream drop a repeated publish. */
@Injectable()
export class WorkPublisher {
  private readonly js: JetStreamClient;

  constructor(@Inject(NATS_CONNECTION) private readonly connection: NatsConnection) {
    this.js = connection.jetstream();
  }

  async publish<D extends DescMessage>(subject: string, schema: D, message: MessageShape<D>, msgId: string): Promise<void> {
    await this.js.publish(subject, toBinary(schema, message), { msgID: msgId });
  }

  /** Best-effort fan-out over core NATS, for listeners that can re-read state (event streams). */
  broadcast<D extends DescMessage>(subject: string, schema: D, message: MessageShape<D>): void {
    this.connection.publish(subject, toBinary(schema, message));
  }
}
