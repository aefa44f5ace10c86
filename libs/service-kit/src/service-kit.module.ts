import { type DynamicModule, Global, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { PrometheusModule } from '@willsoto/nestjs-prometheus';
import type { BaseConfig } from './config';
import { HealthController } from './health.controller';
import { loggingModule } from './logging';
import { ReadinessRegistry } from './readiness';

/** Injection tokens for the service's validated config and name. */
export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');
export const SERVICE_NAME = Symbol('SERVICE_NAME');

export interface ServiceKitOptions {
  serviceName: string;
  config: BaseConfig;
}

/** Logs, `/healthz`, `/readyz`, `/metrics` and the config token, for every service alike. */
@Global()
@Module({})
export class ServiceKitModule {
  static forRoot({ serviceName, config }: ServiceKitOptions): DynamicModule {
    return {
      module: ServiceKitModule,
      imports: [
        loggingModule(serviceName, config.logLevel),
        TerminusModule.forRoot({ logger: false }),
        PrometheusModule.register({
          path: '/metrics',
          defaultMetrics: { enabled: true },
          defaultLabels: { service: serviceName },
        }),
      ],
      controllers: [HealthController],
      providers: [
        ReadinessRegistry,
        { provide: SERVICE_CONFIG, useValue: config },
        { provide: SERVICE_NAME, useValue: serviceName },
      ],
      exports: [ReadinessRegistry, SERVICE_CONFIG, SERVICE_NAME],
    };
  }
}
