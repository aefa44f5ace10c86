import { type DynamicModule, Injectable, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { JetStreamSetup, NatsModule } from '@transmute/messaging';
import { Streams } from '@transmute/contracts';
import { type BaseConfig, ServiceKitModule } from '@transmute/service-kit';

export const SERVICE_NAME = 'webhook-dispatcher';

/** The delivery queue exists from the first start, so deliveries published before a dispatcher runs wait in it. */
@Injectable()
class DeliveryQueue implements OnApplicationBootstrap {
  constructor(private readonly jetstream: JetStreamSetup) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.jetstream.ensureStream(Streams.webhooks);
  }
}

@Module({})
export class AppModule {
  static forRoot(config: BaseConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [ServiceKitModule.forRoot({ serviceName: SERVICE_NAME, config }), NatsModule.forRoot({ url: config.natsUrl, name: SERVICE_NAME })],
      providers: [DeliveryQueue],
    };
  }
}
