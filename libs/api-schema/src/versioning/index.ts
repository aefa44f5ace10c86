export * from './deprecations';
export * from './contract-surface';
export * from './contract-check';
