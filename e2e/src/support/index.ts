export * from './api-types';
export * from './api-client';
export * from './wait-for-job';
export * from './samples';
export * from './platform';
export * from './job-shape';
export * from './response-validator';
