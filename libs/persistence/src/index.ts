export * from './persistence.module';
