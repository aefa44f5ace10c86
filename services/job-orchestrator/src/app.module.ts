import { type DynamicModule, Module } from '@nestjs/common';
import { NatsModule } from '@transmute/messaging';
import { PersistenceModule } from '@transmute/persistence';
import { ServiceKitModule } from '@transmute/service-kit';
import { DownloadLinks, StorageModule } from '@transmute/storage';
import { CatalogueClient } from './catalogue/catalogue.client';
import type { OrchestratorConfig } from './config';
import { DispatchPreparer } from './dispatch/dispatch-preparer';
import { JobDriver } from './dispatch/job-driver';
import { OutcomeConsumer } from './dispatch/outcome.consumer';
import { OutcomeService } from './dispatch/outcome.service';
import { Reconciler } from './dispatch/reconciler';
import { UsageCharges } from './dispatch/usage-charges';
import { WorkSender } from './dispatch/work-sender';
import { JobEventLog } from './events/job-event-log';
import { ConvertSlots } from './fairness/convert-slots';
import { FairDispatch } from './fairness/fair-dispatch';
import { WaitingLine } from './fairness/waiting-line';
import { WebhookEnqueuer } from './events/webhook-enqueuer';
import { JobFinalizer } from './jobs/job-finalizer';
import { JobsAdmission } from './jobs/jobs-admission';
import { JobsRpcController } from './jobs/jobs.rpc.controller';
import { JobsService } from './jobs/jobs.service';
import { StoredImports } from './jobs/stored-imports';
import { PoolBacklogMetrics } from './metrics/pool-backlog.metrics';
import { JobHistory, jobHistoryModels } from './persistence/job-history';
import { RetentionSweeper } from './retention/retention-sweeper';
import { JobStore } from './store/job-store';
import { StoreCounters } from './store/store-counters';

export const SERVICE_NAME = 'job-orchestrator';

@Module({})
export class AppModule {
  static forRoot(config: OrchestratorConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ServiceKitModule.forRoot({ serviceName: SERVICE_NAME, config }),
        NatsModule.forService(SERVICE_NAME, config),
        PersistenceModule.forRoot(config.mongoUri),
        StorageModule.forRoot(config),
        jobHistoryModels,
      ],
      controllers: [JobsRpcController],
      providers: [
        { provide: DownloadLinks, useValue: new DownloadLinks(config) },
        StoreCounters,
        JobStore,
        JobHistory,
        CatalogueClient,
        UsageCharges,
        DispatchPreparer,
        WorkSender,
        ConvertSlots,
        WaitingLine,
        FairDispatch,
        JobEventLog,
        WebhookEnqueuer,
        JobFinalizer,
        JobDriver,
        JobsAdmission,
        JobsService,
        StoredImports,
        OutcomeService,
        OutcomeConsumer,
        Reconciler,
        PoolBacklogMetrics,
        RetentionSweeper,
      ],
    };
  }
}
