import { type DynamicModule, Global, Logger, Module } from '@nestjs/common';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
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
        publicEndpoint: config.storageS3PublicEndpoint,
        accessKeyId: config.storageS3AccessKeyId,
        secretAccessKey: config.storageS3SecretAccessKey,
      });
    }
  }
}

/** How long a service waits at start-up for a store it should create the bucket in (it may be starting too). */
const BUCKET_WAIT_MS = 120_000;
const BUCKET_RETRY_MS = 2_000;

/** The storage, and with TRANSMUTE_STORAGE_S3_CREATE_BUCKET its bucket, made before the service takes work. */
export async function openStorage(config: StorageConfig, waitMs = BUCKET_WAIT_MS): Promise<Storage> {
  const storage = createStorage(config);
  if (config.storageDriver !== 's3' || !config.storageS3CreateBucket) return storage;
  const s3 = storage as import('./s3-storage').S3Storage;
  const deadline = Date.now() + waitMs;
  for (let attempt = 1; ; attempt++) {
    try {
      await s3.ensureBucket();
      return storage;
    } catch (error) {
      const reason = (error as Error).message || (error as Error).name;
      if (Date.now() + BUCKET_RETRY_MS > deadline) {
        throw new Error(`could not create or find bucket ${config.storageS3Bucket} at ${config.storageS3Endpoint || 'AWS S3'} within ${waitMs / 1000} s: ${reason}`);
      }
      if (attempt === 1) new Logger('Storage').warn(`bucket ${config.storageS3Bucket} not reachable yet (${reason}); retrying`);
      await sleep(BUCKET_RETRY_MS);
    }
  }
}

@Global()
@Module({})
export class StorageModule {
  static forRoot(config: StorageConfig): DynamicModule {
    return {
      module: StorageModule,
      providers: [{ provide: STORAGE, useFactory: () => openStorage(config) }],
      exports: [STORAGE],
    };
  }
}
