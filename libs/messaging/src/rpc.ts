import { Inject, Injectable, type INestApplication, type OnModuleDestroy, type DynamicModule, Global, Module } from '@nestjs/common';
import { ClientProxyFactory, type ClientProxy, type MicroserviceOptions, Transport } from '@nestjs/microservices';
import { type DescMessage, type MessageShape, fromJson, toJson, type JsonValue } from '@bufbuild/protobuf';
import { firstValueFrom, timeout } from 'rxjs';
import { ErrorCode, ServiceFailure } from '@transmute/contracts';

/*
 * Request/reply goes through NestJS's NATS transport. Its packets are JSON, so
 * each message travels in its canonical proto3 JSON form and is parsed against
 * its schema on arrival: the proto file stays the contract on both ends.
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

const RPC_CLIENT = Symbol('RPC_CLIENT');

@Injectable()
export class RpcClient implements OnModuleDestroy {
  constructor(@Inject(RPC_CLIENT) private readonly client: ClientProxy) {}

  /** Sends a typed request; a missing or silent responder becomes an UNAVAILABLE failure. */
  async call<Req extends DescMessage, Res extends DescMessage>(
    subject: string,
    requestSchema: Req,
    request: MessageShape<Req>,
    replySchema: Res,
    timeoutMs = 5_000,
  ): Promise<MessageShape<Res>> {
    let reply: unknown;
    try {
      reply = await firstValueFrom(this.client.send(subject, encodeRpc(requestSchema, request)).pipe(timeout(timeoutMs)));
    } catch (error) {
      throw ServiceFailure.unavailable(`${subject} did not answer`, error);
    }
    try {
      return decodeRpc(replySchema, reply);
    } catch (error) {
      throw new ServiceFailure(ErrorCode.INTERNAL, `${subject} answered a malformed ${replySchema.typeName}`, false, { cause: error });
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.client.close();
  }
}

@Global()
@Module({})
export class RpcClientModule {
  static forRoot(options: { url: string; name: string }): DynamicModule {
    return {
      module: RpcClientModule,
      providers: [
        {
          provide: RPC_CLIENT,
          useFactory: () =>
            ClientProxyFactory.create({
              transport: Transport.NATS,
              options: { servers: [options.url], name: `${options.name}-rpc-client`, maxReconnectAttempts: -1 },
            }),
        },
        RpcClient,
      ],
      exports: [RpcClient],
    };
  }
}

/** Attaches the NATS request/reply server; `queue` spreads requests across replicas. */
export async function connectRpcServer(app: INestApplication, options: { url: string; queue: string }): Promise<void> {
  app.connectMicroservice<MicroserviceOptions>(
    {
      transport: Transport.NATS,
      options: { servers: [options.url], queue: options.queue, name: `${options.queue}-rpc`, maxReconnectAttempts: -1 },
    },
    { inheritAppConfig: true },
  );
  await app.startAllMicroservices();
}
