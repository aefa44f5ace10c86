import { type DynamicModule, Global, Module } from '@nestjs/common';
import { resolve } from 'node:path';
import { FsStorage } from './fs-storage';
import { STORAGE, type Storage } from './storage';
import type { StorageConfig } from './storage-config';

export function createStorage(config: StorageConfig): Storage {
  switch (config.storageDriver) {
    case 'fs':
      return new FsStorage({ root: resolve(config.storageFsRoot), signingKey: config.storageSigningKey, publicUrl: config.publicUrl });
    case 's3': {
      if (!config.storageS3Bucket) throw new Error('TRANSMUTE_STORAGE_S3_BUCKET is required with TRANSMUTE_STORAGE_DRIVER=s3');
      // Loaded only when chosen: the AWS SDK adds start-up time to every service that never uses it.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { S3Storage } = require('./s3-storage') as typeof import('./s3-storage');
      return new S3Storage({
        bucket: config.storageS3Bucket,
        region: config.storageS3Region,
        endpoint: config.storageS3Endpoint,
        accessKeyId: config.storageS3AccessKeyId,
        secretAccessKey: config.storageS3SecretAccessKey,
      });
    }
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
