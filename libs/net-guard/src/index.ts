export * from './address-rule';
export * from './guarded-agents';
export * from './resolve-public';
export * from './fetch-public';
export * from './net-guard-config';
