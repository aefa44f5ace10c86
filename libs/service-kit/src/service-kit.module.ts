import { type DynamicModule, Global, type MiddlewareConsumer, Module, type NestModule, RequestMethod } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { PrometheusModule } from '@willsoto/nestjs-prometheus';
import type { DestinationStream } from 'pino';
import type { BaseConfig } from './config';
import { HealthController } from './health.controller';
import { loggingModule } from './logging';
import { ReadinessRegistry } from './readiness';
import { RequestIdMiddleware } from './request-id.middleware';

/** Injection tokens for the service's validated config and name. */
export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');
export const SERVICE_NAME = Symbol('SERVICE_NAME');

export interface ServiceKitOptions {
  serviceName: string;
  config: BaseConfig;
  /** Where the JSON log lines go; stdout unless a test reads them. */
  logDestination?: DestinationStream;
}

/** Logs, `/healthz`, `/readyz`, `/metrics` and the config token, for every service alike. */
@Global()
@Module({})
export class ServiceKitModule implements NestModule {
  static forRoot({ serviceName, config, logDestination }: ServiceKitOptions): DynamicModule {
    return {
      module: ServiceKitModule,
      imports: [
        loggingModule(serviceName, config.logLevel, logDestination),
        TerminusModule.forRoot({ logger: false }),
        PrometheusModule.register({
          path: '/metrics',
          defaultMetrics: { enabled: true },
          defaultLabels: { service: serviceName },
        }),
      ],
      controllers: [HealthController],
      providers: [ReadinessRegistry, { provide: SERVICE_CONFIG, useValue: config }, { provide: SERVICE_NAME, useValue: serviceName }],
      exports: [ReadinessRegistry, SERVICE_CONFIG, SERVICE_NAME],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RequestIdMiddleware).forRoutes({ path: '{*splat}', method: RequestMethod.ALL });
  }
}
