import 'reflect-metadata';
import { runService } from '@transmute/service-kit';
import { AppModule, SERVICE_NAME } from './app.module';
import { exporterConfig } from './config';

void runService({
  name: SERVICE_NAME,
  config: exporterConfig,
  module: (config) => AppModule.forRoot(config),
});
