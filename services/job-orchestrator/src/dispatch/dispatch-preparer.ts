import { Injectable } from '@nestjs/common';
import { CatalogueClient } from '../catalogue/catalogue.client';
import type { Preparation } from '../state/job-walk';
import type { LiveJob, LiveTask } from '../store/live-job';
import { UsageCharges } from './usage-charges';

/**
 * Gets a ready convert what it needs before it runs: a route when its input
 * format was only learnt from the imported bytes, then the account's charge
 * for its input. Both are idempotent, so a step that is tried again
 * prepares again at no cost.
 */
@Injectable()
export class DispatchPreparer {
  constructor(
    private readonly catalogue: CatalogueClient,
    private readonly usageCharges: UsageCharges,
  ) {}

  async prepare(job: LiveJob, task: LiveTask): Promise<Preparation> {
    const inputs = task.dependsOn.map((name) => job.tasks[name]).filter((input): input is LiveTask => input !== undefined);
    const preparation: Preparation = {};
    if (!task.family) {
      const inputFormat = inputs[0]?.output?.format ?? '';
      if (!inputFormat) return { refusal: `convert task ${task.name}: the input's format could not be recognised; give input_format` };
      const [route] = await this.catalogue.route([{ inputFormat, outputFormat: task.outputFormat }]);
      if (!route?.family) return { refusal: `convert task ${task.name}: no conversion from ${inputFormat} to ${task.outputFormat} is available` };
      Object.assign(preparation, { family: route.family, inputFormat });
    }
    const refusal = await this.usageCharges.chargeConvert(job.accountId, { jobId: job.id, name: task.name }, inputs);
    return refusal ? { refusal } : preparation;
  }
}
