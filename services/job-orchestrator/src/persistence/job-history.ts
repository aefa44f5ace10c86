import { type BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { InjectModel, MongooseModule } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { type LiveJob, orderedTasks } from '../store/live-job';
import { JobHistoryDocument, JobHistorySchema } from './job-history.schema';

export const jobHistoryModels = MongooseModule.forFeature([{ name: JobHistoryDocument.name, schema: JobHistorySchema }]);

/** MongoDB's duplicate key error: the record was written by an earlier try. */
const DUPLICATE_KEY = 11000;
/** How long a record waits for others to share its insert: ~3 per insert at 30 jobs/s; nothing waits on the record but the job's clean-up. */
const GATHER_MS = 100;
/** Records per insert at most; the rest wait for the next one. */
const MAX_BATCH = 100;

interface WaitingRecord {
  record: JobHistoryDocument;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** One document's failure in an unordered insert: `index` is its place in the batch (the driver's WriteError, or mongoose's copy of it, with the code under `err`). */
interface WriteError {
  index: number;
  code?: number;
  err?: { code?: number };
}

const isDuplicate = (writeError: WriteError): boolean => (writeError.code ?? writeError.err?.code) === DUPLICATE_KEY;

/**
 * Ended jobs in MongoDB: inserts only, keyed by the job id (cheap on every
 * MongoDB-wire store). A record waits up to GATHER_MS for others, and those
 * that arrive while an insert is in flight go in the next one: at 16 jobs
 * at a time, one insert per job cost the orchestrator and FerretDB ~3 ms
 * of CPU per job. Each caller still learns whether its own record was
 * stored; the job's finalization waits for it, and nothing else does.
 */
@Injectable()
export class JobHistory implements BeforeApplicationShutdown {
  private waiting: WaitingRecord[] = [];
  private gathering: NodeJS.Timeout | undefined;
  private flushing = false;
  private flushed: Promise<void> = Promise.resolve();

  constructor(@InjectModel(JobHistoryDocument.name) private readonly records: Model<JobHistoryDocument>) {}

  record(job: LiveJob): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ record: historyRecord(job), resolve, reject });
      if (!this.flushing && !this.gathering) this.gathering = setTimeout(() => this.startFlush(), GATHER_MS);
    });
  }

  find(jobId: string): Promise<JobHistoryDocument | null> {
    return this.records.findById(jobId).lean<JobHistoryDocument>().exec();
  }

  /** Before the store's connection closes: what waits goes in now. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.gathering) this.startFlush();
    await this.flushed;
  }

  private startFlush(): void {
    clearTimeout(this.gathering);
    this.gathering = undefined;
    this.flushing = true;
    this.flushed = this.flush();
  }

  private async flush(): Promise<void> {
    while (this.waiting.length > 0) await this.insert(this.waiting.splice(0, MAX_BATCH));
    // In the same turn as the last look at `waiting`: a record that comes after it starts a window of its own.
    this.flushing = false;
  }

  private async insert(batch: WaitingRecord[]): Promise<void> {
    try {
      // Lean: the records are built here, typed, once; hydrating mongoose documents to cast and validate them again
      // cost more of the orchestrator's CPU than the insert itself. Unordered: one record's failure stops no other.
      await this.records.insertMany<JobHistoryDocument>(
        batch.map(({ record }) => record),
        { lean: true, ordered: false },
      );
      for (const waiting of batch) waiting.resolve();
    } catch (error) {
      const writeErrors = (error as { writeErrors?: WriteError[] }).writeErrors;
      if (!Array.isArray(writeErrors)) {
        const [only] = batch;
        if (batch.length === 1 && only) {
          // A duplicate reported for the whole insert: an earlier try wrote it.
          if (isDuplicate(error as WriteError)) only.resolve();
          else only.reject(error);
          return;
        }
        // Each alone, at once: a record the store or its driver refuses as a whole must not fail the others beside it.
        await Promise.all(batch.map((waiting) => this.insert([waiting])));
        return;
      }
      const failed = new Map(writeErrors.filter((writeError) => !isDuplicate(writeError)).map((writeError) => [writeError.index, writeError]));
      batch.forEach((waiting, index) => (failed.has(index) ? waiting.reject(failed.get(index)) : waiting.resolve()));
    }
  }
}

function historyRecord(job: LiveJob): JobHistoryDocument {
  return {
    _id: job.id,
    accountId: job.accountId,
    tag: job.tag,
    status: job.status,
    error: job.error,
    tasks: orderedTasks(job).map((task) => ({
      name: task.name,
      operation: task.operation,
      status: task.status,
      error: typeof task.result?.['error'] === 'string' ? task.result['error'] : '',
      filename: task.output?.filename ?? '',
      format: task.output?.format ?? '',
      size: task.output?.size ?? 0,
    })),
    createdAt: new Date(job.createdAt),
    startedAt: job.startedAt === null ? null : new Date(job.startedAt),
    endedAt: new Date(job.endedAt ?? job.updatedAt),
  };
}
