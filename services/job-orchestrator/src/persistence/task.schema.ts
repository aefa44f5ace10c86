import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Schema as MongooseSchema } from 'mongoose';
import type { TaskStatus } from '@transmute/contracts';

export interface StoredOutput {
  key: string;
  filename: string;
  size: number;
  format: string;
}

/** A task's `_id`: FerretDB (SQLite) filters only `_id` inside the database, so every look-up goes by it. */
export function taskId(jobId: string, name: string): string {
  return `${jobId}/${name}`;
}

@Schema({ collection: 'tasks', versionKey: false })
export class TaskDocument {
  /** `<jobId>/<name>`, see taskId(). */
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, required: true })
  jobId!: string;

  @Prop({ type: String, required: true })
  name!: string;

  @Prop({ type: String, required: true })
  operation!: string;

  @Prop({ type: String, required: true })
  status!: TaskStatus;

  @Prop({ type: [String], default: [] })
  dependsOn!: string[];

  /** The client's task in proto3 JSON; erased once the job ends, so credentials do not outlive it. */
  @Prop({ type: MongooseSchema.Types.Mixed, default: null })
  spec!: Record<string, unknown> | null;

  @Prop({ type: String, default: '' })
  inputFormat!: string;

  @Prop({ type: String, default: '' })
  outputFormat!: string;

  /** Converter family that owns the pair (convert tasks). */
  @Prop({ type: String, default: '' })
  family!: string;

  @Prop({ type: String, default: '' })
  uploadKey!: string;

  @Prop({ type: Number, default: 0 })
  attempt!: number;

  /** 0-100 while a long conversion reports it (TaskProgress outcomes). */
  @Prop({ type: Number, default: null })
  progress?: number | null;

  /** Past this, the reconciler dispatches the task again. */
  @Prop({ type: Date, default: null })
  deadlineAt!: Date | null;

  @Prop({ type: MongooseSchema.Types.Mixed, default: null })
  output!: StoredOutput | null;

  /** Public result in proto3 JSON (TaskResult). */
  @Prop({ type: MongooseSchema.Types.Mixed, default: null })
  result!: Record<string, unknown> | null;

  @Prop({ type: Date, required: true })
  createdAt!: Date;

  @Prop({ type: Date, required: true })
  updatedAt!: Date;
}

export const TaskSchema = SchemaFactory.createForClass(TaskDocument);
TaskSchema.index({ status: 1, deadlineAt: 1 });
