import { type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { WebhookDeliveriesClient } from '../events/webhook-deliveries.client';
import { JsonBodyMiddleware } from '../http/json-body.middleware';
import { JobsClient } from '../jobs/jobs.client';
import { DashboardController } from './dashboard.controller';

/** The signed-in person's dashboard API: it reads the accounts, keys, limits and sessions rooms' ports, and owns no data. */
@Module({
  controllers: [DashboardController],
  providers: [JobsClient, WebhookDeliveriesClient],
})
export class DashboardModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(JsonBodyMiddleware).forRoutes(DashboardController);
  }
}
