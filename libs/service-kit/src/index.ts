export * from './config';
export * from './bootstrap';
export * from './readiness';
export * from './redaction';
export * from './logging';
export * from './service-kit.module';
export * from './request-context';
export * from './request-id.middleware';
