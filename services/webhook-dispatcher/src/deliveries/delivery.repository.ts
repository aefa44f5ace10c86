import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { DeliveryState } from '../delivery/retry-policy';
import { DeliveryDocument, type StoredAttempt } from './delivery.schema';

export type DeliveryRecord = DeliveryDocument;

const DUPLICATE_KEY = 11000;

/**
 * The delivery log (`webhook_deliveries`), owned by the dispatcher. Only one
 * dispatcher holds a delivery's message at a time (JetStream), so updates by
 * `_id` need no compare-and-set.
 */
@Injectable()
export class DeliveryRepository {
  constructor(@InjectModel(DeliveryDocument.name) private readonly deliveries: Model<DeliveryDocument>) {}

  find(deliveryId: string): Promise<DeliveryRecord | null> {
    return this.deliveries.findById(deliveryId).lean<DeliveryRecord>().exec();
  }

  /** The stored record, created on the first delivery of its message. */
  async findOrCreate(fresh: DeliveryRecord): Promise<DeliveryRecord> {
    const existing = await this.find(fresh._id);
    if (existing) return existing;
    try {
      await this.deliveries.create(fresh);
      return fresh;
    } catch (error) {
      if ((error as { code?: number }).code !== DUPLICATE_KEY) throw error;
      return (await this.find(fresh._id)) ?? fresh;
    }
  }

  async recordAttempt(deliveryId: string, attempts: StoredAttempt[], state: DeliveryState, nextAttemptAt: Date | null): Promise<void> {
    await this.deliveries.updateOne({ _id: deliveryId }, { $set: { attempts, state, nextAttemptAt, updatedAt: new Date() } }).exec();
  }

  markDeadLettered(deliveryId: string): Promise<unknown> {
    return this.deliveries.updateOne({ _id: deliveryId }, { $set: { deadLetteredAt: new Date(), updatedAt: new Date() } }).exec();
  }

  /** Settles a delivery as failed and dead-lettered, keeping whatever attempts it has. */
  markGivenUp(deliveryId: string): Promise<unknown> {
    const now = new Date();
    return this.deliveries.updateOne({ _id: deliveryId }, { $set: { state: 'failed', nextAttemptAt: null, deadLetteredAt: now, updatedAt: now } }).exec();
  }

  /**
   * A job's deliveries. This filter is not on `_id`, so FerretDB scans the
   * collection: fine for an occasional look by the account holder, never on
   * the delivery path.
   */
  listForJob(jobId: string): Promise<DeliveryRecord[]> {
    return this.deliveries.find({ jobId }).sort({ createdAt: 1 }).lean<DeliveryRecord[]>().exec();
  }
}
