import { ClientNats, type WritePacket } from '@nestjs/microservices';
import type { MsgHdrs, NatsConnection } from 'nats';

/**
 * Nest's NATS client with one request call that goes through nats.js's own
 * request/reply, for RpcClient. Nest's `send` subscribes a fresh inbox for
 * every request and unsubscribes it after the reply: two more protocol
 * operations per call, each a change to the server's interest graph, and an
 * Observable around it. nats.js answers every request of a connection
 * through one wildcard inbox, times it out itself, and fails a request
 * nobody serves at once (no responders). Packets, serializer and
 * deserializer stay Nest's, so the server side is unchanged.
 */
export class SharedInboxClientNats extends ClientNats {
  /** The replier's response; rejects with nats.js's error (timeout, no responders) or the transport's own `err`. */
  async request(subject: string, data: unknown, timeoutMs: number): Promise<unknown> {
    const connection = (await this.connect()) as NatsConnection;
    const serialized = this.serializer.serialize(this.assignPacketId({ pattern: subject, data })) as { data: Uint8Array; headers?: MsgHdrs };
    const headers = this.mergeHeaders<MsgHdrs>(serialized.headers) as MsgHdrs | undefined;
    const reply = await connection.request(subject, serialized.data, { headers, timeout: timeoutMs });
    const message = (await this.deserializer.deserialize(reply.data)) as WritePacket;
    if (message.err !== undefined && message.err !== null) throw message.err instanceof Error ? message.err : new Error(String(message.err));
    return message.response;
  }
}
