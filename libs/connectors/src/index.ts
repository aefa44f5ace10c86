export * from './targets';
export * from './network-failure';
export * from './s3-connection';
export * from './sftp-connection';
export * from './gcs-connection';
export * from './connector-config';
export * from './byte-ceiling';
export * from './task-credentials';
