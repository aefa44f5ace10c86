import { type DynamicModule, Module } from '@nestjs/common';
import { NatsModule } from '@transmute/messaging';
import { ServiceKitModule } from '@transmute/service-kit';
import { StorageModule } from '@transmute/storage';
import type { ConverterConfig } from './config';
import { setEngineLimits } from './engine/engine-limits';
import { setPixelLimit } from './engine/pixel-limit';
import { FAMILIES, FAMILY } from './families/registry';
import { ConvertHandler } from './work/convert.handler';
import { ScratchSpace } from './work/scratch-space';
import { ConvertWorker } from './work/convert.worker';

export const SERVICE_NAME = 'converter';

@Module({})
export class AppModule {
  static forRoot(config: ConverterConfig): DynamicModule {
    const name = `${SERVICE_NAME}-${config.family}`;
    const createFamily = FAMILIES[config.family]!;
    // Process-wide ceilings every family's engine calls share.
    setEngineLimits({ timeoutMs: config.convertTimeoutMs, memoryLimitMb: config.convertMemoryMb });
    setPixelLimit(config.maxInputPixels);
    return {
      module: AppModule,
      imports: [
        ServiceKitModule.forRoot({ serviceName: name, config }),
        NatsModule.forRoot({ url: config.natsUrl, name, replicas: config.natsReplicas }),
        StorageModule.forRoot(config),
      ],
      providers: [{ provide: FAMILY, useFactory: createFamily }, ScratchSpace, ConvertHandler, ConvertWorker],
    };
  }
}
