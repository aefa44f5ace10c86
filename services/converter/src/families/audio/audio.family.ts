import { mkdtemp, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ServiceFailure } from '@transmute/contracts';
import type { ConversionRequest, ConverterFamily, PairDeclaration } from '../family';
import { ffmpegVersion } from '../ffmpeg/ffmpeg-version';
import { convertMedia } from '../ffmpeg/media-engine';
import { mediaOptions } from '../ffmpeg/media-options';
import type { OutputProfile } from '../ffmpeg/media-profile';
import { AUDIO_OUTPUTS, AUDIO_TARGETS } from './audio-formats';
import { decodeWithSox } from './sox-decoder';
import { SOX_INPUTS, type SoxInput } from './sox-formats';
import { TRACKER_INPUTS } from './tracker-module';

/**
 * Audio through ffmpeg: every audio format it reads (and the proof can make)
 * to the common targets; formats only SoX reads are decoded to WAV by SoX first.
 */
export class AudioFamily implements ConverterFamily {
  readonly name = 'audio';
  engineVersion = 'ffmpeg';

  async start(): Promise<void> {
    this.engineVersion = await ffmpegVersion();
  }

  pairs(): PairDeclaration[] {
    const pairs: PairDeclaration[] = [];
    for (const inputFormat of Object.keys(AUDIO_OUTPUTS)) {
      for (const outputFormat of AUDIO_TARGETS) {
        const profile = AUDIO_OUTPUTS[outputFormat]!;
        // Between two names of one format (aif/aiff, mp2/mpa) there is nothing to convert.
        if (inputFormat === outputFormat || AUDIO_OUTPUTS[inputFormat] === profile) continue;
        pairs.push({ inputFormat, outputFormat, options: mediaOptions(profile) });
      }
    }
    for (const inputFormat of TRACKER_INPUTS) {
      for (const outputFormat of AUDIO_TARGETS) pairs.push({ inputFormat, outputFormat, options: mediaOptions(AUDIO_OUTPUTS[outputFormat]!) });
    }
    for (const [inputFormat, input] of Object.entries(SOX_INPUTS)) {
      for (const outputFormat of AUDIO_TARGETS)
        if (!input.notTo?.includes(outputFormat)) pairs.push({ inputFormat, outputFormat, options: mediaOptions(AUDIO_OUTPUTS[outputFormat]!) });
    }
    return pairs;
  }

  convert(request: ConversionRequest): Promise<void> {
    const profile = (AUDIO_TARGETS as readonly string[]).includes(request.outputFormat) ? AUDIO_OUTPUTS[request.outputFormat] : undefined;
    if (!profile) return Promise.reject(ServiceFailure.validation(`the audio family does not write ${request.outputFormat}`));
    const soxInput = SOX_INPUTS[request.inputFormat];
    if (!soxInput) return convertMedia(request, profile);
    return this.convertThroughSox(request, profile, soxInput);
  }

  private async convertThroughSox(request: ConversionRequest, profile: OutputProfile, input: SoxInput): Promise<void> {
    const scratch = await mkdtemp(join(dirname(request.outputPath), 'sox-'));
    try {
      const wav = join(scratch, 'decoded.wav');
      await decodeWithSox(request.inputPath, request.inputFormat, input, wav, request.signal);
      await convertMedia({ ...request, inputPath: wav, inputFormat: 'wav' }, profile);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }
}
