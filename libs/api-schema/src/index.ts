export * from './common';
export * from './tasks';
export * from './jobs';
export * from './catalogue';
export * from './imports';
export * from './openapi';
export * from './task-result-view';
export * from './webhook-deliveries';
