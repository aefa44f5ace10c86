import { FAMILIES } from './registry';

/**
 * Prints the registered family names as JSON, so tooling outside the service
 * (devstack's `make up`) starts every family without importing service code.
 */
process.stdout.write(`${JSON.stringify(Object.keys(FAMILIES))}\n`);
