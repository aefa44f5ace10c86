import 'reflect-metadata';
import { runService } from '@transmute/service-kit';
import { AppModule, SERVICE_NAME } from './app.module';
import { converterConfig } from './config';

void runService({
  name: SERVICE_NAME,
  config: converterConfig,
  module: (config) => AppModule.forRoot(config),
});
