import 'reflect-metadata';
import { baseConfig, runService } from '@transmute/service-kit';
import { AppModule, SERVICE_NAME } from './app.module';

void runService({ name: SERVICE_NAME, config: baseConfig(8084), module: (config) => AppModule.forRoot(config) });
