import { Module } from '@nestjs/common';
import { loadConfig } from '@transmute/service-kit';
import { JobsClient } from '../jobs/jobs.client';
import { EVENTS_CONFIG, eventsConfig } from './events.config';
import { EventsController } from './events.controller';
import { JobEventHub } from './job-event-hub';
import { KeepAlive } from './keep-alive';
import { WebhookDeliveriesClient } from './webhook-deliveries.client';
import { WebhookDeliveriesController } from './webhook-deliveries.controller';

/**
 * The job event stream (SSE, fed by the JOB_EVENTS log over NATS) and the
 * webhook delivery log of a job (asked of the webhook dispatcher).
 */
@Module({
  controllers: [EventsController, WebhookDeliveriesController],
  providers: [{ provide: EVENTS_CONFIG, useFactory: () => loadConfig(eventsConfig) }, JobsClient, JobEventHub, KeepAlive, WebhookDeliveriesClient],
})
export class EventsModule {}
