import { ServiceFailure } from '@transmute/contracts';
import type { ConversionRequest, ConverterFamily, PairDeclaration } from '../family';
import { ffmpegVersion } from '../ffmpeg/ffmpeg-version';
import { convertMedia } from '../ffmpeg/media-engine';
import { mediaOptions } from '../ffmpeg/media-options';
import { AUDIO_OUTPUTS, AUDIO_TARGETS } from './audio-formats';

/** Audio through ffmpeg: every audio format it reads (and the proof can make) to the common targets. */
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
    return pairs;
  }

  convert(request: ConversionRequest): Promise<void> {
    const profile = (AUDIO_TARGETS as readonly string[]).includes(request.outputFormat) ? AUDIO_OUTPUTS[request.outputFormat] : undefined;
    if (!profile) return Promise.reject(ServiceFailure.validation(`the audio family does not write ${request.outputFormat}`));
    return convertMedia(request, profile);
  }
}
