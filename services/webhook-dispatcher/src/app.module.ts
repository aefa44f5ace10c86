import { type DynamicModule, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { NatsModule } from '@transmute/messaging';
import { PersistenceModule } from '@transmute/persistence';
import { ServiceKitModule } from '@transmute/service-kit';
import type { DispatcherConfig } from './config';
import { DeliveriesRpcController } from './deliveries/deliveries.rpc.controller';
import { DeliveryRepository } from './deliveries/delivery.repository';
import { DeliveryDocument, DeliverySchema } from './deliveries/delivery.schema';
import { AttemptJournal } from './delivery/attempt-journal';
import { DeliveryDeadLetters } from './delivery/delivery-dead-letters';
import { DeliveryWorker } from './delivery/delivery.worker';
import { SigningSecrets } from './delivery/signing-secrets';
import { WebhookSender } from './delivery/webhook-sender';

export const SERVICE_NAME = 'webhook-dispatcher';

@Module({})
export class AppModule {
  static forRoot(config: DispatcherConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceKitModule.forRoot({ serviceName: SERVICE_NAME, config }),
        NatsModule.forService(SERVICE_NAME, config),
        PersistenceModule.forRoot(config.mongoUri),
        MongooseModule.forFeature([{ name: DeliveryDocument.name, schema: DeliverySchema }]),
      ],
      controllers: [DeliveriesRpcController],
      providers: [DeliveryRepository, AttemptJournal, SigningSecrets, WebhookSender, DeliveryDeadLetters, DeliveryWorker],
    };
  }
}
