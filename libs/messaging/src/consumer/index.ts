export * from './settlement';
export * from './consumer-runner';
export * from './consumer-runners';
