import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Schema as MongooseSchema } from 'mongoose';
import type { JobStatus } from '@transmute/contracts';

export interface TaskSummary {
  name: string;
  operation: string;
  status: string;
  error: string;
  filename: string;
  format: string;
  size: number;
}

/**
 * An ended job, written once when it is finalized: the durable record kept
 * beside the live store (which forgets the job after the retention period).
 * No credentials, no links.
 */
@Schema({ collection: 'job_history', versionKey: false })
export class JobHistoryDocument {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, required: true })
  accountId!: string;

  @Prop({ type: String, default: '' })
  tag!: string;

  @Prop({ type: String, required: true })
  status!: JobStatus;

  @Prop({ type: String, default: '' })
  error!: string;

  @Prop({ type: [MongooseSchema.Types.Mixed], default: [] })
  tasks!: TaskSummary[];

  @Prop({ type: Date, required: true })
  createdAt!: Date;

  @Prop({ type: Date, default: null })
  startedAt!: Date | null;

  @Prop({ type: Date, required: true })
  endedAt!: Date;
}

export const JobHistorySchema = SchemaFactory.createForClass(JobHistoryDocument);
// The dashboard's and operators' look-up on MongoDB (FerretDB scans regardless; it is off every hot path).
JobHistorySchema.index({ accountId: 1, endedAt: -1 });
