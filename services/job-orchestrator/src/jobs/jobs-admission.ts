import { Inject, Injectable } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { ServiceFailure } from '@transmute/contracts';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { OrchestratorConfig } from '../config';

const inFlight = new Gauge({ name: 'transmute_jobs_requests_in_flight', help: 'jobs.* requests being answered by this orchestrator' });
const shed = new Gauge({ name: 'transmute_jobs_requests_shed', help: 'jobs.* requests refused at once because too many were in flight (since start)' });

/**
 * Bounds the jobs.* requests one orchestrator answers at once. Past the
 * bound a request is refused at once (the gateway answers 503 with
 * Retry-After) instead of queueing behind the others until the caller's
 * timeout: under overload a client learns in milliseconds to come back,
 * and what was accepted keeps moving.
 */
@Injectable()
export class JobsAdmission {
  private running = 0;
  private refused = 0;

  constructor(@Inject(SERVICE_CONFIG) private readonly config: OrchestratorConfig) {}

  async run<T>(action: () => Promise<T>): Promise<T> {
    if (this.running >= this.config.jobsMaxInFlight) {
      shed.set((this.refused += 1));
      throw ServiceFailure.unavailable(`the job service is busy (${this.running} requests in flight); retry in a second`);
    }
    inFlight.set((this.running += 1));
    try {
      return await action();
    } finally {
      inFlight.set((this.running -= 1));
    }
  }
}
