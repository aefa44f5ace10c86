import 'reflect-metadata';
import { connectRpcServer } from '@transmute/messaging';
import { baseConfig, runService } from '@transmute/service-kit';
import { AppModule, SERVICE_NAME } from './app.module';

void runService({
  name: SERVICE_NAME,
  config: baseConfig(8085),
  module: (config) => AppModule.forRoot(config),
  beforeListen: (app, config) => connectRpcServer(app, { url: config.natsUrl, queue: SERVICE_NAME }),
});
