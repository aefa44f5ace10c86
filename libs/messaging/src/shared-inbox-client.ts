import { ClientNats, type MsPattern, type ReadPacket, type WritePacket } from '@nestjs/microservices';
import type { Msg, MsgHdrs, NatsConnection } from 'nats';

/**
 * How long nats.js keeps a request's place in the shared inbox. The caller's
 * own timeout (RpcClient) answers first; this only bounds what an unanswered
 * request holds after the caller gave up on it.
 */
const ABANDONED_REQUEST_MS = 120_000;

/**
 * Nest's NATS client, sending each request through nats.js's own
 * request/reply. Nest's ClientNats subscribes a fresh inbox for every request
 * and unsubscribes it after the reply: two more protocol operations per call,
 * each a change to the server's interest graph. nats.js answers every request
 * of a connection through one wildcard inbox subscription, and fails a
 * request nobody serves at once (no responders) instead of at its timeout.
 * Packets, serializer and deserializer stay Nest's, so the server side is
 * unchanged.
 */
export class SharedInboxClientNats extends ClientNats {
  protected override publish(partialPacket: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    let abandoned = false;
    try {
      const packet = this.assignPacketId(partialPacket);
      const serialized = this.serializer.serialize(packet) as { data: Uint8Array; headers?: unknown };
      const onReply = this.createSubscriptionHandler(packet, callback);
      const connection = this.natsClient as NatsConnection;
      const subject = this.normalizePattern(partialPacket.pattern as MsPattern);
      const headers = this.mergeHeaders<MsgHdrs>(serialized.headers as MsgHdrs | undefined) as MsgHdrs | undefined;
      connection.request(subject, serialized.data, { headers, timeout: ABANDONED_REQUEST_MS }).then(
        (reply: Msg) => (abandoned ? undefined : onReply(undefined, reply)),
        (error: unknown) => (abandoned ? undefined : callback({ err: error })),
      );
    } catch (error) {
      callback({ err: error });
    }
    return () => {
      abandoned = true;
    };
  }
}
