import { STORAGE, type Storage } from '@transmute/storage';
import { JobsService } from '../src/jobs/jobs.service';
import { RetentionSweeper } from '../src/retention/retention-sweeper';
import { JobStore } from '../src/store/job-store';
import { createUploadedJob, waitFor } from './job-fixtures';
import { OrchestratorHarness } from './orchestrator-harness';
import { WorkerPoolSim } from './worker-pool.sim';

const RETENTION_SECONDS = 3;
const harness = new OrchestratorHarness();

beforeAll(() => harness.start({ TRANSMUTE_FILE_RETENTION_SECONDS: String(RETENTION_SECONDS) }));
afterAll(() => harness.stop());

describe('job records expire with the retention period', () => {
  it('a job past its retention period answers 404, and its files are gone', async () => {
    const jobs = harness.app.get(JobsService);
    const storage = harness.app.get<Storage>(STORAGE);
    const pool = new WorkerPoolSim(harness, storage);
    pool.start();
    const job = await createUploadedJob(jobs, storage, { withExport: false });
    await jobs.completeUpload(job.id, 'acc');
    await waitFor(async () => (await jobs.get(job.id, 'acc')).status === 'finished', 'the job to finish');
    await pool.stop();
    const result = `jobs/${job.id}/to-jpg/photo.jpg`;
    expect(await storage.stat(result)).not.toBeNull();
    expect((await jobs.list('acc', 10)).map((listed) => listed.id)).toContain(job.id);

    await waitFor(async () => (await harness.app.get(JobStore).get(job.id)) === null, 'the job record to expire', (RETENTION_SECONDS + 15) * 1_000);
    await expect(jobs.get(job.id, 'acc')).rejects.toThrow(`no job ${job.id}`);
    expect((await jobs.list('acc', 10)).map((listed) => listed.id)).not.toContain(job.id);
    await harness.app.get(RetentionSweeper).sweep();
    expect(await storage.stat(result)).toBeNull();
    expect(await storage.stat(`uploads/${job.id}/in`)).toBeNull();
  });
});
