import { type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { JsonBodyMiddleware } from '../http/json-body.middleware';
import { ImportsModule } from '../imports/imports.module';
import { JobsClient } from './jobs.client';
import { JobsController } from './jobs.controller';

/** `/v1/process/jobs`: job creation, look-up and complete-upload, answered by the orchestrator. */
@Module({
  imports: [ImportsModule],
  controllers: [JobsController],
  providers: [JobsClient],
})
export class JobsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(JsonBodyMiddleware).forRoutes(JobsController);
  }
}
