export * from './config';
export * from './bootstrap';
export * from './readiness';
export * from './redaction';
export * from './logging';
export * from './service-kit.module';
export * from './local-endpoints';
