import { type DynamicModule, Global, Module } from '@nestjs/common';
import { NatsModule } from '@transmute/messaging';
import { ReadinessRegistry, SERVICE_CONFIG } from '@transmute/service-kit';
import { PersistenceModule } from '@transmute/persistence';
import { AccountsModule } from '../accounts';
import { KeysModule } from '../keys';
import { LimitsModule } from '../limits';
import { PeopleAdminModule } from '../people';
import type { AdminConfig } from './admin.config';

const NAME = 'transmute-admin';

/** The config token and readiness registry the shared modules expect, without the HTTP service kit. */
@Global()
@Module({})
class AdminKitModule {
  static forRoot(config: AdminConfig): DynamicModule {
    return {
      module: AdminKitModule,
      providers: [{ provide: SERVICE_CONFIG, useValue: config }, ReadinessRegistry],
      exports: [SERVICE_CONFIG, ReadinessRegistry],
    };
  }
}

/** The gateway's identity rooms as a standalone application context (no HTTP, no RPC server). */
@Module({})
export class AdminModule {
  static forRoot(config: AdminConfig): DynamicModule {
    return {
      module: AdminModule,
      imports: [
        AdminKitModule.forRoot(config),
        NatsModule.forService(NAME, config),
        PersistenceModule.forRoot(config.mongoUri),
        LimitsModule,
        AccountsModule.forAdmin(),
        KeysModule.forAdmin(),
        PeopleAdminModule,
      ],
    };
  }
}
