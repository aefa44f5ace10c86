import { join } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { create } from '@bufbuild/protobuf';
import { ServiceFailure, TaskOutcomeSchema, type TaskSucceeded, TaskSucceededSchema, type TaskWork } from '@transmute/contracts';
import { type TaskContext, WorkPublisher } from '@transmute/messaging';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import { STORAGE, type Storage, storageKey } from '@transmute/storage';
import type { ConverterConfig } from '../config';
import type { ConverterFamily } from '../families/family';
import { FAMILY } from '../families/registry';
import { conversionSeconds } from '../engine/supervisor/engine-metrics';
import { assertProduced, withTimeLimit } from './conversion-guards';
import { outputFilename } from './output-filename';
import { ProgressThrottle, progressOutcome } from './progress-reporter';
import { ScratchSpace } from './scratch-space';

/**
 * storage → scratch file → engine → scratch file → storage, with no byte of
 * the files passing through this process on the fs driver (a kernel copy in,
 * a rename out) and streamed on S3; inside the conversion time limit, with
 * progress going to the orchestrator.
 */
@Injectable()
export class ConvertHandler {
  constructor(
    @Inject(FAMILY) private readonly family: ConverterFamily,
    @Inject(STORAGE) private readonly storage: Storage,
    @Inject(SERVICE_CONFIG) private readonly config: ConverterConfig,
    private readonly publisher: WorkPublisher,
    private readonly scratchSpace: ScratchSpace,
  ) {}

  async handle(work: TaskWork, context: TaskContext): Promise<TaskSucceeded> {
    const source = work.inputs[0];
    if (!source) throw ServiceFailure.validation(`convert task ${work.taskName} has no input file`);
    const scratch = await this.scratchSpace.make();
    try {
      const inputPath = join(scratch, `input.${work.inputFormat}`);
      const outputPath = join(scratch, `output.${work.outputFormat}`);
      await this.storage.getFile(source.key, inputPath, context.signal);
      const progress = new ProgressThrottle((percent) => {
        const { subject, message, msgId } = progressOutcome(work, percent);
        return this.publisher.publish(subject, TaskOutcomeSchema, message, msgId);
      }, this.config.startedReportDelayMs);
      const timer = conversionSeconds.startTimer({ family: this.family.name });
      try {
        await withTimeLimit(this.config.convertTimeoutMs, context.signal, (signal) =>
          this.family.convert({
            inputPath,
            outputPath,
            inputFormat: work.inputFormat,
            outputFormat: work.outputFormat,
            options: work.spec?.options ?? {},
            signal,
            reportProgress: (percent) => progress.report(percent),
          }),
        );
        timer({ outcome: 'succeeded' });
      } catch (error) {
        // A refusal for backpressure is no conversion at all: counted apart so it does not skew the failed times.
        timer({ outcome: error instanceof ServiceFailure && error.backpressure ? 'deferred' : 'failed' });
        throw error;
      }
      await assertProduced(outputPath, work.outputFormat);
      const filename = outputFilename(source.filename, work.outputFormat);
      const key = storageKey('jobs', work.jobId, work.taskName, filename);
      const stored = await this.storage.putFile(key, outputPath);
      return create(TaskSucceededSchema, { file: { key, filename, size: BigInt(stored.size), format: work.outputFormat } });
    } finally {
      this.scratchSpace.clearLater(scratch);
    }
  }
}
