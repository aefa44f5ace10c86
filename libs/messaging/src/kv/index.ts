export * from './cas-conflict';
export * from './kv-codecs';
export * from './kv-bucket';
export * from './kv-counter';
