import 'reflect-metadata';
import { runService } from '@transmute/service-kit';
import { AppModule, GATEWAY_APP_OPTIONS, SERVICE_NAME } from './app.module';
import { gatewayConfig } from './config';

void runService({
  name: SERVICE_NAME,
  config: gatewayConfig,
  module: (config) => AppModule.forRoot(config),
  bodyParser: GATEWAY_APP_OPTIONS.bodyParser,
});
