import { ServiceFailure } from '@transmute/contracts';
import { AUDIO_OUTPUTS } from '../audio/audio-formats';
import type { ConversionRequest, ConverterFamily, PairDeclaration } from '../family';
import { ffmpegVersion } from '../ffmpeg/ffmpeg-version';
import { convertMedia } from '../ffmpeg/media-engine';
import { mediaOptions } from '../ffmpeg/media-options';
import type { OutputProfile } from '../ffmpeg/media-profile';
import { SUBTITLE_INPUTS, convertSubtitles, subtitlePairs } from './subtitles';
import { EXTRACTED_AUDIO, SILENT_INPUTS, VIDEO_OUTPUTS, VIDEO_READ_ONLY, VIDEO_TARGETS } from './video-formats';

/**
 * Video through ffmpeg: between video containers, a video's sound track
 * out to audio formats, and text subtitles between their formats. Audio-to-audio is the audio family's, so each pool
 * scales on its own backlog.
 */
export class VideoFamily implements ConverterFamily {
  readonly name = 'video';
  engineVersion = 'ffmpeg';

  async start(): Promise<void> {
    this.engineVersion = await ffmpegVersion();
  }

  pairs(): PairDeclaration[] {
    const pairs: PairDeclaration[] = [];
    const inputs = [...Object.keys(VIDEO_OUTPUTS), ...VIDEO_READ_ONLY];
    for (const inputFormat of inputs) {
      for (const outputFormat of VIDEO_TARGETS) {
        const profile = VIDEO_OUTPUTS[outputFormat]!;
        // Between two names of one format (mpg/mpeg, ts/mts) there is nothing to convert.
        if (inputFormat === outputFormat || VIDEO_OUTPUTS[inputFormat] === profile) continue;
        pairs.push({ inputFormat, outputFormat, options: mediaOptions(profile) });
      }
      if (SILENT_INPUTS.has(inputFormat)) continue;
      for (const outputFormat of EXTRACTED_AUDIO) {
        pairs.push({ inputFormat, outputFormat, options: mediaOptions(AUDIO_OUTPUTS[outputFormat]!) });
      }
    }
    for (const pair of subtitlePairs()) pairs.push({ ...pair, options: [] });
    return pairs;
  }

  convert(request: ConversionRequest): Promise<void> {
    if (request.inputFormat in SUBTITLE_INPUTS) {
      return convertSubtitles(request.inputPath, request.outputPath, request.inputFormat, request.outputFormat, request.signal);
    }
    return convertMedia(request, this.profileFor(request.outputFormat));
  }

  private profileFor(format: string): OutputProfile {
    const profile = (VIDEO_TARGETS as readonly string[]).includes(format)
      ? VIDEO_OUTPUTS[format]
      : (EXTRACTED_AUDIO as readonly string[]).includes(format)
        ? AUDIO_OUTPUTS[format]
        : undefined;
    if (!profile) throw ServiceFailure.validation(`the video family does not write ${format}`);
    return profile;
  }
}
