import { ServiceFailure } from '@transmute/contracts';
import { engineLimits } from '../../engine/engine-limits';
import { runEngine } from '../../engine/run-engine';
import type { ConversionRequest, ConverterFamily, PairDeclaration } from '../family';
import { THREE_D_EXPORTERS, THREE_D_INPUTS, THREE_D_UNSUPPORTED_PAIRS, threeDPairNote } from './three-d-formats';
import { assimpExportArgs, threeDOptions, threeDSettings } from './three-d-options';

/** assimp prints its import progress as "NN %" lines. */
const PROGRESS_LINE = /^\s*(\d{1,3})\s*%\s*$/;

/** 3D models through the Open Asset Import Library's command line (`assimp export`). */
export class ThreeDFamily implements ConverterFamily {
  readonly name = '3d';
  engineVersion = 'assimp';

  pairs(): PairDeclaration[] {
    return THREE_D_INPUTS.flatMap((inputFormat) =>
      Object.keys(THREE_D_EXPORTERS)
        .filter((outputFormat) => outputFormat !== inputFormat && !THREE_D_UNSUPPORTED_PAIRS.has(`${inputFormat}->${outputFormat}`))
        .map((outputFormat) => ({ inputFormat, outputFormat, options: threeDOptions(outputFormat), note: threeDPairNote(outputFormat) })),
    );
  }

  async start(): Promise<void> {
    const { stdout } = await runEngine({ command: 'assimp', args: ['version'], timeoutMs: 10_000, signal: AbortSignal.timeout(10_000) });
    const version = /Version (\S+)/i.exec(stdout)?.[1];
    if (version) this.engineVersion = `assimp ${version}`;
  }

  async convert(request: ConversionRequest): Promise<void> {
    if (!(THREE_D_INPUTS as readonly string[]).includes(request.inputFormat)) {
      throw ServiceFailure.validation(`the 3d family does not read ${request.inputFormat}`);
    }
    if (!THREE_D_EXPORTERS[request.outputFormat] || THREE_D_UNSUPPORTED_PAIRS.has(`${request.inputFormat}->${request.outputFormat}`)) {
      throw ServiceFailure.validation(`the 3d family does not convert ${request.inputFormat} to ${request.outputFormat}`);
    }
    const args = assimpExportArgs(request.inputPath, request.outputPath, request.outputFormat, threeDSettings(request.options));
    const onLine = (line: string) => {
      const match = PROGRESS_LINE.exec(line);
      if (match) request.reportProgress(Number(match[1]));
    };
    await runEngine({ command: 'assimp', args, timeoutMs: engineLimits().timeoutMs, signal: request.signal, onStdoutLine: onLine, onStderrLine: onLine });
  }
}
