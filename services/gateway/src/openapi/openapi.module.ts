import { type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { DEPRECATIONS } from '@transmute/api-schema';
import { DEPRECATION_REGISTER, DeprecationHeadersMiddleware } from './deprecation-headers.middleware';
import { OpenApiController } from './openapi.controller';

/** The contract's room: the OpenAPI document, and the deprecations announced on the routes it describes. */
@Module({ controllers: [OpenApiController], providers: [{ provide: DEPRECATION_REGISTER, useValue: DEPRECATIONS }] })
export class OpenApiModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(DeprecationHeadersMiddleware).forRoutes('v1/*path');
  }
}
