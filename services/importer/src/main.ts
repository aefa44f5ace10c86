import 'reflect-metadata';
import { runService } from '@transmute/service-kit';
import { AppModule, SERVICE_NAME } from './app.module';
import { importerConfig } from './config';

void runService({
  name: SERVICE_NAME,
  config: importerConfig,
  module: (config) => AppModule.forRoot(config),
});
