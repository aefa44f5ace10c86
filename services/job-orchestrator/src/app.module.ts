import { type DynamicModule, Module } from '@nestjs/common';
import { NatsModule, RpcClientModule } from '@transmute/messaging';
import { PersistenceModule } from '@transmute/persistence';
import { ServiceKitModule } from '@transmute/service-kit';
import { StorageModule } from '@transmute/storage';
import { CatalogueClient } from './catalogue/catalogue.client';
import type { OrchestratorConfig } from './config';
import { OutcomeConsumer } from './dispatch/outcome.consumer';
import { OutcomeService } from './dispatch/outcome.service';
import { Reconciler } from './dispatch/reconciler';
import { TaskDispatcher } from './dispatch/task-dispatcher';
import { UsageCharges } from './dispatch/usage-charges';
import { JobEventLog } from './events/job-event-log';
import { RetentionSweeper } from './retention/retention-sweeper';
import { WebhookEnqueuer } from './events/webhook-enqueuer';
import { JobLocks } from './jobs/job-locks';
import { PoolBacklogMetrics } from './metrics/pool-backlog.metrics';
import { JobProgress } from './jobs/job-progress';
import { JobsRpcController } from './jobs/jobs.rpc.controller';
import { JobsService } from './jobs/jobs.service';
import { JobRepository } from './persistence/job.repository';
import { jobModels } from './persistence/persistence';

export const SERVICE_NAME = 'job-orchestrator';

@Module({})
export class AppModule {
  static forRoot(config: OrchestratorConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceKitModule.forRoot({ serviceName: SERVICE_NAME, config }),
        NatsModule.forRoot({ url: config.natsUrl, name: SERVICE_NAME }),
        RpcClientModule.forRoot({ url: config.natsUrl, name: SERVICE_NAME }),
        PersistenceModule.forRoot(config.mongoUri),
        StorageModule.forRoot(config),
        jobModels,
      ],
      controllers: [JobsRpcController],
      providers: [JobLocks, JobRepository, CatalogueClient, TaskDispatcher, UsageCharges, JobEventLog, WebhookEnqueuer, JobProgress, JobsService, OutcomeService, OutcomeConsumer, Reconciler, PoolBacklogMetrics, RetentionSweeper],
    };
  }
}
