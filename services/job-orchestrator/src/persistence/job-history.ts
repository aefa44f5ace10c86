import { Injectable } from '@nestjs/common';
import { InjectModel, MongooseModule } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { type LiveJob, orderedTasks } from '../store/live-job';
import { JobHistoryDocument, JobHistorySchema } from './job-history.schema';

export const jobHistoryModels = MongooseModule.forFeature([{ name: JobHistoryDocument.name, schema: JobHistorySchema }]);

/** MongoDB's duplicate key error: the record was written by an earlier try. */
const DUPLICATE_KEY = 11000;

/** Ended jobs in MongoDB: inserts only, keyed by the job id (cheap on every MongoDB-wire store). */
@Injectable()
export class JobHistory {
  constructor(@InjectModel(JobHistoryDocument.name) private readonly records: Model<JobHistoryDocument>) {}

  async record(job: LiveJob): Promise<void> {
    try {
      // Lean: the record is built here, typed, once; hydrating a mongoose document to cast and validate it again
      // cost more of the orchestrator's CPU than the insert itself.
      await this.records.insertMany<JobHistoryDocument>(
        [
          {
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
          },
        ],
        { lean: true },
      );
    } catch (error) {
      if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error;
    }
  }

  find(jobId: string): Promise<JobHistoryDocument | null> {
    return this.records.findById(jobId).lean<JobHistoryDocument>().exec();
  }
}
