import { z } from 'zod';
import { envVar, flag, secretKey } from '@transmute/service-kit';

/** Variables of every service that reads or writes stored files. */
export function storageConfig() {
  return {
    storageDriver: envVar(
      'TRANSMUTE_STORAGE_DRIVER',
      z.enum(['fs', 's3']).default('fs'),
      'Storage driver: fs (embedded, files under TRANSMUTE_STORAGE_FS_ROOT) or s3 (AWS S3 or an S3-compatible store such as MinIO).',
    ),
    storageS3Bucket: envVar(
      'TRANSMUTE_STORAGE_S3_BUCKET',
      z.string().default(''),
      's3 driver: the bucket holding every source and result (must exist unless TRANSMUTE_STORAGE_S3_CREATE_BUCKET).',
    ),
    storageS3Region: envVar('TRANSMUTE_STORAGE_S3_REGION', z.string().default('us-east-1'), "s3 driver: the bucket's region."),
    storageS3Endpoint: envVar(
      'TRANSMUTE_STORAGE_S3_ENDPOINT',
      z.union([z.literal(''), z.url()]).default(''),
      's3 driver: an S3-compatible endpoint (MinIO); empty for AWS. Signed links point at it too unless TRANSMUTE_STORAGE_S3_PUBLIC_ENDPOINT is set.',
    ),
    storageS3PublicEndpoint: envVar(
      'TRANSMUTE_STORAGE_S3_PUBLIC_ENDPOINT',
      z.union([z.literal(''), z.url()]).default(''),
      "s3 driver: the endpoint clients reach, when it differs from TRANSMUTE_STORAGE_S3_ENDPOINT (the services' own, in-cluster one); signed links point at it. Empty: the same endpoint.",
    ),
    storageS3CreateBucket: envVar(
      'TRANSMUTE_STORAGE_S3_CREATE_BUCKET',
      flag().default(false),
      's3 driver: create the bucket at start-up when it is missing (a MinIO the platform runs itself). Default false: the bucket must exist.',
    ),
    storageS3AccessKeyId: envVar(
      'TRANSMUTE_STORAGE_S3_ACCESS_KEY_ID',
      z.string().default(''),
      's3 driver: access key id; empty to use the AWS default chain (environment, instance or pod role).',
      { secret: true },
    ),
    storageS3SecretAccessKey: envVar('TRANSMUTE_STORAGE_S3_SECRET_ACCESS_KEY', z.string().default(''), 's3 driver: secret access key.', { secret: true }),
    storageFsRoot: envVar(
      'TRANSMUTE_STORAGE_FS_ROOT',
      z.string().default('.transmute/data/storage'),
      'Directory of the fs driver; shared by gateway, orchestrator, importer, converter and exporter.',
    ),
    storageSigningKey: envVar(
      'TRANSMUTE_STORAGE_SIGNING_KEY',
      secretKey(),
      "HMAC key of the fs driver's signed upload and download links (32+ characters, same on every service).",
      { secret: true },
    ),
    publicUrl: envVar(
      'TRANSMUTE_PUBLIC_URL',
      z
        .url()
        .default('http://127.0.0.1:8080')
        .transform((url) => url.replace(/\/+$/, '')),
      'Base URL clients use to reach the gateway; links the platform hands out start with it.',
    ),
  };
}

export interface StorageConfig {
  storageDriver: 'fs' | 's3';
  storageS3Bucket: string;
  storageS3Region: string;
  storageS3Endpoint: string;
  storageS3PublicEndpoint: string;
  storageS3CreateBucket: boolean;
  storageS3AccessKeyId: string;
  storageS3SecretAccessKey: string;
  storageFsRoot: string;
  storageSigningKey: string;
  publicUrl: string;
}

export function downloadTokenConfig() {
  return {
    downloadTokenKey: envVar('TRANSMUTE_DOWNLOAD_TOKEN_KEY', secretKey(), 'HMAC key of download tokens (32+ characters, same on orchestrator, exporter and gateway).', {
      secret: true,
    }),
  };
}
