import 'reflect-metadata';
import { connectRpcServer } from '@transmute/messaging';
import { runService } from '@transmute/service-kit';
import { AppModule, GATEWAY_APP_OPTIONS, SERVICE_NAME } from './app.module';
import { gatewayConfig } from './config';

void runService({
  name: SERVICE_NAME,
  config: gatewayConfig,
  module: (config) => AppModule.forRoot(config),
  bodyParser: GATEWAY_APP_OPTIONS.bodyParser,
  // accounts.* request/reply (signing secrets, usage charges), shared by the replicas.
  beforeListen: (app, config) => connectRpcServer(app, { url: config.natsUrl, queue: SERVICE_NAME }),
});
