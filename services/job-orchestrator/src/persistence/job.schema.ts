import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { JobStatus } from '@transmute/contracts';

@Schema({ collection: 'jobs', versionKey: false })
export class JobDocument {
  /** 32 lowercase hex characters. */
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, required: true, index: true })
  accountId!: string;

  @Prop({ type: String, default: '' })
  tag!: string;

  @Prop({ type: String, required: true })
  status!: JobStatus;

  @Prop({ type: String, default: '' })
  webhookUrl!: string;

  @Prop({ type: String, default: '' })
  error!: string;

  /** Task names in the order the client wrote them. */
  @Prop({ type: [String], default: [] })
  taskOrder!: string[];

  @Prop({ type: Date, required: true })
  createdAt!: Date;

  @Prop({ type: Date, required: true })
  updatedAt!: Date;

  @Prop({ type: Date, default: null })
  startedAt!: Date | null;

  @Prop({ type: Date, default: null })
  endedAt!: Date | null;

  /**
   * Absent while the job runs; false from its terminal transition until what
   * follows the end (cancelling idle tasks, the event, the webhooks, erasing
   * credentials) is done, then true. A job left at false by a crash is
   * finished off by the reconciler.
   */
  @Prop({ type: Boolean })
  finalized?: boolean;
}

export const JobSchema = SchemaFactory.createForClass(JobDocument);
JobSchema.index({ finalized: 1, endedAt: 1 });
