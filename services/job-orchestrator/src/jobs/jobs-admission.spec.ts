import { ErrorCode, ServiceFailure } from '@transmute/contracts';
import type { OrchestratorConfig } from '../config';
import { JobsAdmission } from './jobs-admission';

describe('JobsAdmission', () => {
  it('refuses at once, as unavailable, past its bound, and admits again when a request ends', async () => {
    const admission = new JobsAdmission({ jobsMaxInFlight: 2 } as OrchestratorConfig);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = admission.run(() => held.then(() => 'first'));
    const second = admission.run(() => held.then(() => 'second'));
    const refused = await admission.run(async () => 'third').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ServiceFailure);
    expect((refused as ServiceFailure).code).toBe(ErrorCode.UNAVAILABLE);
    expect((refused as ServiceFailure).message).toMatch(/busy \(2 requests in flight\); retry/);
    release();
    await expect(Promise.all([first, second])).resolves.toEqual(['first', 'second']);
    await expect(admission.run(async () => 'fourth')).resolves.toBe('fourth');
  });

  it('frees its slot when a request fails', async () => {
    const admission = new JobsAdmission({ jobsMaxInFlight: 1 } as OrchestratorConfig);
    await expect(admission.run(() => Promise.reject(new Error('store away')))).rejects.toThrow('store away');
    await expect(admission.run(async () => 'next')).resolves.toBe('next');
  });
});
