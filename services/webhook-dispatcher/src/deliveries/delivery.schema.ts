import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Schema as MongooseSchema } from 'mongoose';
import type { DeliveryState } from '../delivery/retry-policy';

export interface StoredAttempt {
  attempt: number;
  startedAt: Date;
  /** 0: no response. */
  statusCode: number;
  durationMs: number;
  error: string;
}

/**
 * One delivery and every attempt of it. `_id` is the delivery id: FerretDB
 * (SQLite) filters only `_id` inside the database, and every hot read goes by it.
 */
@Schema({ collection: 'webhook_deliveries', versionKey: false })
export class DeliveryDocument {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, required: true })
  jobId!: string;

  @Prop({ type: String, required: true })
  accountId!: string;

  @Prop({ type: String, required: true })
  event!: string;

  @Prop({ type: String, required: true })
  url!: string;

  @Prop({ type: String, required: true })
  state!: DeliveryState;

  @Prop({ type: [MongooseSchema.Types.Mixed], default: [] })
  attempts!: StoredAttempt[];

  /** When the next attempt is due; null once settled. */
  @Prop({ type: Date, default: null })
  nextAttemptAt!: Date | null;

  /** When the dead letter of a `failed` delivery was recorded in DEAD_LETTERS; null until then. */
  @Prop({ type: Date, default: null })
  deadLetteredAt?: Date | null;

  @Prop({ type: Date, required: true })
  createdAt!: Date;

  @Prop({ type: Date, required: true })
  updatedAt!: Date;
}

export const DeliverySchema = SchemaFactory.createForClass(DeliveryDocument);
DeliverySchema.index({ jobId: 1 });
