import { Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';

export type StoreOperation = 'create' | 'get' | 'update' | 'conflict' | 'active';

const operations = new Counter({
  name: 'transmute_job_store_operations_total',
  help: 'Operations on the live job store (JetStream KV), by kind; conflicts are lost compare-and-set races',
  labelNames: ['operation'],
});

/**
 * Counts job-store operations on /metrics and in process, so a test can
 * show that the work per job does not grow with the number of jobs stored.
 */
@Injectable()
export class StoreCounters {
  private readonly tally = new Map<StoreOperation, number>();

  count(operation: StoreOperation, n: number): void {
    operations.inc({ operation }, n);
    this.tally.set(operation, (this.tally.get(operation) ?? 0) + n);
  }

  snapshot(): Record<StoreOperation, number> {
    const read = (operation: StoreOperation) => this.tally.get(operation) ?? 0;
    return { create: read('create'), get: read('get'), update: read('update'), conflict: read('conflict'), active: read('active') };
  }
}
