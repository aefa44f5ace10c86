import 'reflect-metadata';
import { connectRpcServer } from '@transmute/messaging';
import { runService } from '@transmute/service-kit';
import { AppModule, SERVICE_NAME } from './app.module';
import { dispatcherConfig } from './config';

void runService({
  name: SERVICE_NAME,
  config: dispatcherConfig,
  module: (config) => AppModule.forRoot(config),
  beforeListen: (app, config) => connectRpcServer(app, { url: config.natsUrl, queue: SERVICE_NAME }),
});
