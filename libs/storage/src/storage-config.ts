import { z } from 'zod';
import { envVar, secretKey } from '@transmute/service-kit';

/** Variables of every service that reads or writes stored files. */
export function storageConfig() {
  return {
    storageDriver: envVar('TRANSMUTE_STORAGE_DRIVER', z.enum(['fs']).default('fs'), 'Storage driver: fs (embedded).'),
    storageFsRoot: envVar(
      'TRANSMUTE_STORAGE_FS_ROOT',
      z.string().default('.transmute/data/storage'),
      'Directory of the fs driver; shared by gateway, orchestrator, importer, converter and exporter.',
    ),
    storageSigningKey: envVar(
      'TRANSMUTE_STORAGE_SIGNING_KEY',
      secretKey(),
      'HMAC key of the fs driver\'s signed upload and download links (32+ characters, same on every service).',
      { secret: true },
    ),
    publicUrl: envVar(
      'TRANSMUTE_PUBLIC_URL',
      z.url().default('http://127.0.0.1:8080').transform((url) => url.replace(/\/+$/, '')),
      'Base URL clients use to reach the gateway; links the platform hands out start with it.',
    ),
  };
}

export interface StorageConfig {
  storageDriver: 'fs';
  storageFsRoot: string;
  storageSigningKey: string;
  publicUrl: string;
}

export function downloadTokenConfig() {
  return {
    downloadTokenKey: envVar(
      'TRANSMUTE_DOWNLOAD_TOKEN_KEY',
      secretKey(),
      'HMAC key of download tokens (32+ characters, same on orchestrator, exporter and gateway).',
      { secret: true },
    ),
  };
}
