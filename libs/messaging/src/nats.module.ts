import { type DynamicModule, Global, Inject, Injectable, Logger, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Events, connect, type NatsConnection } from 'nats';
import { ReadinessRegistry } from '@transmute/service-kit';
import { JetStreamSetup } from './jetstream-setup';
import { TaskWorkers } from './task-workers';
import { WorkPublisher } from './work-publisher';
import { DeadLetterPublisher } from './dead-letters';
import { RpcClient } from './rpc';
import { ConsumerRunners } from './consumer/consumer-runners';
import { setStreamReplicas } from './stream-replicas';
import { NATS_CONNECTION } from './tokens';
import { SERVICE_CONNECTION_OPTIONS } from './connection-options';

export { NATS_CONNECTION };

export interface NatsModuleOptions {
  url: string;
  /** Shown in NATS monitoring; the service name. */
  name: string;
  /** Copies of every stream and KV bucket (TRANSMUTE_NATS_REPLICAS); 1 on a single server. */
  replicas?: number;
}

/** What NatsModule.forService reads of a service's config (service-kit's baseConfig). */
export interface NatsServiceConfig {
  natsUrl: string;
  natsReplicas: number;
}

/** Ties the shared connection's lifetime to the app and reports it to `/readyz`. */
@Injectable()
class NatsLifecycle implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('nats');

  constructor(
    @Inject(NATS_CONNECTION) private readonly connection: NatsConnection,
    private readonly readiness: ReadinessRegistry,
  ) {}

  onModuleInit(): void {
    this.readiness.register('nats', async () => {
      if (this.connection.isClosed()) return false;
      await this.connection.flush();
      return true;
    });
    void (async () => {
      for await (const status of this.connection.status()) {
        if (status.type === Events.Disconnect || status.type === Events.Reconnect) this.logger.warn(`nats ${status.type}`);
      }
    })();
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.connection.isClosed()) await this.connection.drain();
  }
}

@Global()
@Module({})
export class NatsModule {
  /** A service's NATS from its config (TRANSMUTE_NATS_URL, TRANSMUTE_NATS_REPLICAS), named after the service. */
  static forService(name: string, config: NatsServiceConfig): DynamicModule {
    return NatsModule.forRoot({ url: config.natsUrl, name, replicas: config.natsReplicas });
  }

  static forRoot(options: NatsModuleOptions): DynamicModule {
    return {
      module: NatsModule,
      providers: [
        {
          provide: NATS_CONNECTION,
          // Keeps retrying the first connection, so a service started before NATS simply waits.
          useFactory: async () => {
            const connection = await connect({ ...SERVICE_CONNECTION_OPTIONS, servers: options.url, name: options.name, waitOnFirstConnect: true });
            setStreamReplicas(connection, options.replicas ?? 1);
            return connection;
          },
        },
        NatsLifecycle,
        JetStreamSetup,
        WorkPublisher,
        TaskWorkers,
        DeadLetterPublisher,
        ConsumerRunners,
        RpcClient,
      ],
      exports: [NATS_CONNECTION, JetStreamSetup, WorkPublisher, TaskWorkers, DeadLetterPublisher, ConsumerRunners, RpcClient],
    };
  }
}
