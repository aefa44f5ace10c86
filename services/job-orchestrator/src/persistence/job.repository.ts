import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { FilterQuery, Model, UpdateQuery } from 'mongoose';
import type { JobStatus, TaskStatus } from '@transmute/contracts';
import { JobDocument } from './job.schema';
import { TaskDocument } from './task.schema';

export type JobRecord = JobDocument;
export type TaskRecord = TaskDocument;

/**
 * The technology of job storage. Every status change is a conditional update
 * on the expected state, so two workers can never move one task twice.
 */
@Injectable()
export class JobRepository {
  constructor(
    @InjectModel(JobDocument.name) private readonly jobs: Model<JobDocument>,
    @InjectModel(TaskDocument.name) private readonly tasks: Model<TaskDocument>,
  ) {}

  async insert(job: JobRecord, tasks: TaskRecord[]): Promise<void> {
    // Tasks first: a job visible without its tasks would read as empty.
    await this.tasks.insertMany(tasks, { ordered: true });
    await this.jobs.create(job);
  }

  findJob(jobId: string): Promise<JobRecord | null> {
    return this.jobs.findById(jobId).lean<JobRecord>().exec();
  }

  findTasks(jobId: string): Promise<TaskRecord[]> {
    return this.tasks.find({ jobId }).lean<TaskRecord[]>().exec();
  }

  /** Moves a task from one of `from` to its next state; null when it was not in one of them. */
  transitionTask(
    jobId: string,
    name: string,
    from: readonly TaskStatus[],
    update: UpdateQuery<TaskDocument>,
    extraCondition: FilterQuery<TaskDocument> = {},
  ): Promise<TaskRecord | null> {
    return this.tasks
      .findOneAndUpdate({ jobId, name, status: { $in: [...from] }, ...extraCondition }, update, { new: true })
      .lean<TaskRecord>()
      .exec();
  }

  async transitionJob(jobId: string, from: JobStatus, update: UpdateQuery<JobDocument>): Promise<JobRecord | null> {
    return this.jobs.findOneAndUpdate({ _id: jobId, status: from }, update, { new: true }).lean<JobRecord>().exec();
  }

  async cancelWaitingTasks(jobId: string, statuses: readonly TaskStatus[]): Promise<void> {
    await this.tasks.updateMany({ jobId, status: { $in: [...statuses] } }, { $set: { status: 'cancelled', updatedAt: new Date() } }).exec();
  }

  /** Credentials given on tasks serve one job only. */
  async eraseSpecs(jobId: string): Promise<void> {
    await this.tasks.updateMany({ jobId }, { $set: { spec: null } }).exec();
  }

  findOverdue(statuses: readonly TaskStatus[], now: Date, limit: number): Promise<TaskRecord[]> {
    return this.tasks
      .find({ status: { $in: [...statuses] }, deadlineAt: { $lt: now } })
      .limit(limit)
      .lean<TaskRecord[]>()
      .exec();
  }
}
