import { createHash } from 'node:crypto';
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import { type Job, Streams, Subjects, WebhookDeliverySchema } from '@transmute/contracts';
import { JetStreamSetup, WorkPublisher } from '@transmute/messaging';
import { type LiveJob, orderedTasks } from '../store/live-job';

/** The job is already terminal in the store, so nothing else would publish these again: insist a little. */
const PUBLISH_RETRY = { attempts: 5, delayMs: 500 };

/**
 * Where a job's end is announced: the `url` of each export/webhook task, in
 * the client's order, then the job-level `webhook_url`. A URL named twice gets
 * one delivery.
 */
export function webhookTargets(job: Pick<LiveJob, 'webhookUrl' | 'taskOrder' | 'tasks'>): string[] {
  const urls: string[] = [];
  for (const task of orderedTasks(job)) {
    const url = task.operation === 'export/webhook' ? task.spec?.['url'] : undefined;
    if (typeof url === 'string' && url !== '') urls.push(url);
  }
  if (job.webhookUrl) urls.push(job.webhookUrl);
  return [...new Set(urls)];
}

/** The same on every attempt and on a repeated publish: 32 hex from the job and the URL. */
export function webhookDeliveryId(jobId: string, url: string): string {
  return createHash('sha256').update(`${jobId}\n${url}`).digest('hex').slice(0, 32);
}

/**
 * Hands a finished or failed job's deliveries to the webhook dispatcher
 * through the WEBHOOKS work queue; from there they are durable. The delivery
 * id is the `Nats-Msg-Id`, so a repeated publish is dropped.
 */
@Injectable()
export class WebhookEnqueuer implements OnApplicationBootstrap {
  constructor(
    private readonly publisher: WorkPublisher,
    private readonly setup: JetStreamSetup,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.setup.ensureStream(Streams.webhooks);
  }

  async enqueue(job: Job, urls: readonly string[]): Promise<void> {
    const event = job.status === 'failed' ? 'job.failed' : 'job.finished';
    for (const url of urls) {
      const deliveryId = webhookDeliveryId(job.id, url);
      const delivery = create(WebhookDeliverySchema, {
        deliveryId,
        jobId: job.id,
        accountId: job.accountId,
        event,
        url,
        job,
        createdAt: timestampNow(),
      });
      await this.publisher.publishWithRetry(Subjects.webhooksDeliver, WebhookDeliverySchema, delivery, deliveryId, PUBLISH_RETRY);
    }
  }
}
