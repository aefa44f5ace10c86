import { type DynamicModule, Global, Module } from '@nestjs/common';
import { resolve } from 'node:path';
import { FsStorage } from './fs-storage';
import { STORAGE, type Storage } from './storage';
import type { StorageConfig } from './storage-config';

export function createStorage(config: StorageConfig): Storage {
  switch (config.storageDriver) {
    case 'fs':
      return new FsStorage({ root: resolve(config.storageFsRoot), signingKey: config.storageSigningKey, publicUrl: config.publicUrl });
  }
}

@Global()
@Module({})
export class StorageModule {
  static forRoot(config: StorageConfig): DynamicModule {
    return {
      module: StorageModule,
      providers: [{ provide: STORAGE, useValue: createStorage(config) }],
      exports: [STORAGE],
    };
  }
}
