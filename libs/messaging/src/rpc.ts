import { randomUUID } from 'node:crypto';
import { type INestApplication, Inject, Injectable, Logger } from '@nestjs/common';
import { MessagePattern, type MicroserviceOptions, NatsRecordBuilder, type WritePacket } from '@nestjs/microservices';
import { NatsResponseJSONDeserializer } from '@nestjs/microservices/deserializers';
import { NatsRecordSerializer } from '@nestjs/microservices/serializers';
import { type DescMessage, type MessageShape, fromJson, toJson, type JsonValue } from '@bufbuild/protobuf';
import type { MsgHdrs, NatsConnection } from 'nats';
import { ErrorCode, ServiceFailure, asServiceFailure } from '@transmute/contracts';
import { requestIdHeaders } from './request-id-headers';
import { type ReplyValue, failureReply, replyValue, successReply, valueCaseOf } from './rpc-outcome';
import { SERVICE_CONNECTION_OPTIONS } from './connection-options';
import { SubjectServerNats } from './subject-server-nats';
import { NATS_CONNECTION } from './tokens';

/*
 * Request/reply speaks NestJS's NATS transport: Nest serves it
 * (SubjectServerNats), and RpcClient sends Nest's packets through nats.js's
 * own request/reply on the service's one connection. Its packets are JSON, so
 * each message travels in its canonical proto3 JSON form and is parsed against
 * its schema on arrival: the proto file stays the contract on both ends. Every
 * reply is `oneof outcome { <value> = 1; ServiceError error = 2; }` (rpc-outcome.ts).
 */

export function encodeRpc<D extends DescMessage>(schema: D, message: MessageShape<D>): JsonValue {
  return toJson(schema, message);
}

export function decodeRpc<D extends DescMessage>(schema: D, payload: unknown): MessageShape<D> {
  try {
    return fromJson(schema, payload as JsonValue);
  } catch (error) {
    throw new ServiceFailure(ErrorCode.INVALID_ARGUMENT, `malformed ${schema.typeName}: ${(error as Error).message}`);
  }
}

export interface RpcServeOptions {
  /** Turns a thrown error into the failure to answer with; `asServiceFailure` by default. */
  classify?: (error: unknown) => ServiceFailure;
  /** Where INTERNAL and UNAVAILABLE failures are logged, with their cause. */
  logger?: Pick<Logger, 'error'>;
}

/**
 * The server half: decode the request, run the handler, answer its value or
 * the ServiceFailure it threw. It never throws: an undecodable request is an
 * INVALID_ARGUMENT answer, anything unexpected an INTERNAL one (logged).
 */
export async function serveRpc<Req extends DescMessage, Res extends DescMessage>(
  requestSchema: Req,
  replySchema: Res,
  payload: unknown,
  handler: (request: MessageShape<Req>) => Promise<ReplyValue<Res>> | ReplyValue<Res>,
  options: RpcServeOptions = {},
): Promise<JsonValue> {
  try {
    const value = await handler(decodeRpc(requestSchema, payload));
    return encodeRpc(replySchema, successReply(replySchema, value));
  } catch (error) {
    const failure = (options.classify ?? asServiceFailure)(error);
    if (failure.code === ErrorCode.INTERNAL || failure.code === ErrorCode.UNAVAILABLE) {
      (options.logger ?? fallbackLogger).error({ err: failure.cause ?? error }, failure.message);
    }
    return encodeRpc(replySchema, failureReply(replySchema, failure));
  }
}

const fallbackLogger = new Logger('rpc');

type RpcMethod<Req extends DescMessage, Res extends DescMessage> = (request: MessageShape<Req>) => Promise<ReplyValue<Res>> | ReplyValue<Res>;

/**
 * Marks a controller method as the handler of `subject`: the method takes the
 * decoded request and returns the reply's value (or throws a ServiceFailure);
 * `serveRpc` does the rest. Checks the reply schema's shape when the class loads.
 */
export function RpcHandler<Req extends DescMessage, Res extends DescMessage>(subject: string, requestSchema: Req, replySchema: Res, options: Omit<RpcServeOptions, 'logger'> = {}) {
  valueCaseOf(replySchema);
  return <M extends RpcMethod<Req, Res>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<M>): void => {
    const handler = descriptor.value;
    if (!handler) throw new Error(`@RpcHandler(${subject}) needs a method`);
    const logger = new Logger(target.constructor.name);
    const serve = function (this: unknown, payload: unknown): Promise<JsonValue> {
      return serveRpc(requestSchema, replySchema, payload, (request) => handler.call(this, request), { ...options, logger });
    };
    // Nest calls the method with the raw payload; callers see the typed signature.
    descriptor.value = serve as unknown as M;
    MessagePattern(subject)(target, key, descriptor);
  };
}

export interface RpcRequestOptions {
  timeoutMs?: number;
  /** The client-facing message when nobody answers, e.g. "the catalogue is unavailable; try again shortly". */
  unavailable?: string;
}

/**
 * Sends Nest's request packets through nats.js's `request()`, which answers
 * every request of a connection through one wildcard inbox, times each out
 * itself, and fails a request nobody serves at once (no responders). Nest's
 * own client would open a second connection and subscribe a fresh inbox per
 * request: two more protocol operations per call, each a change to the
 * server's interest graph.
 */
@Injectable()
export class RpcClient {
  private readonly serializer = new NatsRecordSerializer();
  private readonly deserializer = new NatsResponseJSONDeserializer();

  constructor(@Inject(NATS_CONNECTION) private readonly connection: NatsConnection) {}

  /**
   * The client half: sends a typed request and returns the reply's value, or
   * throws: the replier's own ServiceFailure; UNAVAILABLE (retryable) when
   * nobody answers in time; INTERNAL when the reply is malformed.
   */
  async request<Req extends DescMessage, Res extends DescMessage>(
    subject: string,
    requestSchema: Req,
    request: MessageShape<Req>,
    replySchema: Res,
    options: RpcRequestOptions = {},
  ): Promise<ReplyValue<Res>> {
    const reply = await this.call(subject, requestSchema, request, replySchema, options.timeoutMs, options.unavailable);
    return replyValue(replySchema, reply, subject);
  }

  private async call<Req extends DescMessage, Res extends DescMessage>(
    subject: string,
    requestSchema: Req,
    request: MessageShape<Req>,
    replySchema: Res,
    timeoutMs = 5_000,
    unavailable = `${subject} did not answer`,
  ): Promise<MessageShape<Res>> {
    let reply: unknown;
    try {
      reply = await this.send(subject, this.record(encodeRpc(requestSchema, request)), timeoutMs);
    } catch (error) {
      throw ServiceFailure.unavailable(unavailable, error);
    }
    try {
      return decodeRpc(replySchema, reply);
    } catch (error) {
      throw new ServiceFailure(ErrorCode.INTERNAL, `${subject} answered a malformed ${replySchema.typeName}`, false, { cause: error });
    }
  }

  /** The payload, with the current request id in its headers when there is one. */
  private record(payload: JsonValue) {
    const headers = requestIdHeaders();
    return headers ? new NatsRecordBuilder(payload).setHeaders(headers).build() : payload;
  }

  /** The replier's response; rejects with nats.js's error (timeout, no responders) or the transport's own `err`. */
  private async send(subject: string, data: unknown, timeoutMs: number): Promise<unknown> {
    // The id is what makes Nest's server answer (a packet without one is an event).
    const packet = this.serializer.serialize({ pattern: subject, data, id: randomUUID() }) as { data: Uint8Array; headers?: MsgHdrs };
    const reply = await this.connection.request(subject, packet.data, { headers: packet.headers, timeout: timeoutMs });
    const message = this.deserializer.deserialize(reply.data) as WritePacket;
    if (message.err !== undefined && message.err !== null) throw message.err instanceof Error ? message.err : new Error(String(message.err));
    return message.response;
  }
}

/** Attaches the NATS request/reply server; `queue` spreads requests across replicas. */
export async function connectRpcServer(app: INestApplication, options: { url: string; queue: string }): Promise<void> {
  app.connectMicroservice<MicroserviceOptions>(
    { strategy: new SubjectServerNats({ ...SERVICE_CONNECTION_OPTIONS, servers: [options.url], queue: options.queue, name: `${options.queue}-rpc` }) },
    { inheritAppConfig: true },
  );
  await app.startAllMicroservices();
}
