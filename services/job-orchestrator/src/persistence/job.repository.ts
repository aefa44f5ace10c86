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

  async cancelWaitingTasks(job: TaskOwner, statuses: readonly TaskStatus[]): Promise<void> {
    for (const task of await this.findTasks(job)) {
      if (!statuses.includes(task.status)) continue;
      await this.tasks.updateOne({ _id: task._id, status: task.status }, { $set: { status: 'cancelled', updatedAt: new Date() } }).exec();
    }
  }

  /** Credentials given on tasks serve one job only. */
  async eraseSpecs(job: TaskOwner): Promise<void> {
    for (const task of await this.findTasks(job)) await this.tasks.updateOne({ _id: task._id }, { $set: { spec: null } }).exec();
  }

  findOverdue(statuses: readonly TaskStatus[], now: Date, limit: number): Promise<TaskRecord[]> {
    return this.tasks
      .find({ status: { $in: [...statuses] }, deadlineAt: { $lt: now } })
      .limit(limit)
      .lean<TaskRecord[]>()
      .exec();
  }
}
