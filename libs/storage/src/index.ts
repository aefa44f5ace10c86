export * from './storage';
export * from './url-signer';
export * from './download-tokens';
export * from './fs-storage';
export * from './storage-config';
export * from './storage.module';
export * from './format-sniff';
export * from './imported-format';
