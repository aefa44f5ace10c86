import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { FilterQuery, Model, UpdateQuery } from 'mongoose';
import type { JobStatus, TaskStatus } from '@transmute/contracts';
import { JobDocument } from './job.schema';
import { TaskDocument, taskId } from './task.schema';

export type JobRecord = JobDocument;
export type TaskRecord = TaskDocument;
/** What locating a job's tasks needs: callers pass the job they already hold. */
export type TaskOwner = Pick<JobRecord, '_id' | 'taskOrder'>;

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

  findTask(jobId: string, name: string): Promise<TaskRecord | null> {
    return this.tasks.findById(taskId(jobId, name)).lean<TaskRecord>().exec();
  }

  /** The job's tasks, each fetched by `_id` (a filter on `jobId` would scan every task on FerretDB). */
  async findTasks(job: TaskOwner): Promise<TaskRecord[]> {
    const tasks = await Promise.all(job.taskOrder.map((name) => this.tasks.findById(taskId(job._id, name)).lean<TaskRecord>().exec()));
    return tasks.filter((task): task is TaskRecord => task !== null);
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
      .findOneAndUpdate({ _id: taskId(jobId, name), status: { $in: [...from] }, ...extraCondition }, update, { new: true })
      .lean<TaskRecord>()
      .exec();
  }

  async transitionJob(jobId: string, from: JobStatus, update: UpdateQuery<JobDocument>): Promise<JobRecord | null> {
    return this.jobs.findOneAndUpdate({ _id: jobId, status: from }, update, { new: true }).lean<JobRecord>().exec();
  }

  /** Cancels each of `tasks` that is in one of `statuses`; returns the tasks as they are afterwards. */
  async cancelWaitingTasks(tasks: readonly TaskRecord[], statuses: readonly TaskStatus[]): Promise<TaskRecord[]> {
    const after: TaskRecord[] = [];
    for (const task of tasks) {
      const cancelled = statuses.includes(task.status)
        ? await this.tasks
            .findOneAndUpdate({ _id: task._id, status: task.status }, { $set: { status: 'cancelled', updatedAt: new Date() } }, { new: true })
            .lean<TaskRecord>()
            .exec()
        : null;
      after.push(cancelled ?? task);
    }
    return after;
  }

  /** Credentials given on tasks serve one job only. */
  async eraseSpecs(tasks: readonly TaskRecord[]): Promise<void> {
    for (const task of tasks) if (task.spec !== null) await this.tasks.updateOne({ _id: task._id }, { $set: { spec: null } }).exec();
  }

  async markFinalized(jobId: string): Promise<void> {
    await this.jobs.updateOne({ _id: jobId }, { $set: { finalized: true } }).exec();
  }

  /** Jobs whose end was recorded before `endedBefore` but whose finalisation never completed. */
  findUnfinalized(endedBefore: Date, limit: number): Promise<JobRecord[]> {
    return this.jobs.find({ finalized: false, endedAt: { $lt: endedBefore } }).limit(limit).lean<JobRecord[]>().exec();
  }

  findOverdue(statuses: readonly TaskStatus[], now: Date, limit: number): Promise<TaskRecord[]> {
    return this.tasks
      .find({ status: { $in: [...statuses] }, deadlineAt: { $lt: now } })
      .limit(limit)
      .lean<TaskRecord[]>()
      .exec();
  }
}
