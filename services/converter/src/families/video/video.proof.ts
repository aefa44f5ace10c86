import { join } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import type { FamilyProof } from '../../matrix/family-proof';
import { AUDIO_OUTPUTS } from '../audio/audio-formats';
import { mediaContentCheck } from '../ffmpeg/media-fidelity';
import { mediaOptionChecks } from '../ffmpeg/media.option-checks';
import { verifyMediaOutput, writeMediaSample } from '../ffmpeg/media-proof';
import { verifySubtitleOutput, writeSubtitleSample } from './subtitle-proof';
import { SUBTITLE_INPUTS, SUBTITLE_OUTPUTS } from './subtitles';
import { subtitleContentCheck } from './subtitle.fidelity';
import { VIDEO_OUTPUTS } from './video-formats';

/** ffmpeg arguments for the formats the family reads but does not write. */
const READ_ONLY_SAMPLES: Record<string, string[]> = {
  dnxhd: ['-vf', 'scale=256:144', '-c:v', 'dnxhd', '-profile:v', 'dnxhr_lb', '-pix_fmt', 'yuv422p', '-f', 'dnxhd'],
  dnxhr: ['-vf', 'scale=256:144', '-c:v', 'dnxhd', '-profile:v', 'dnxhr_sq', '-pix_fmt', 'yuv422p', '-f', 'dnxhd'],
  drc: ['-c:v', 'vc2', '-f', 'dirac'],
  vc2: ['-c:v', 'vc2', '-f', 'dirac'],
  roq: ['-vf', 'scale=160:112', '-r', '30', '-c:v', 'roqvideo', '-c:a', 'roq_dpcm', '-ar', '22050', '-f', 'roq'],
};

const profileOf = (format: string) => VIDEO_OUTPUTS[format] ?? AUDIO_OUTPUTS[format];

export function videoProof(): FamilyProof {
  const media = mediaContentCheck(profileOf);
  const subtitles = subtitleContentCheck();
  return {
    family: 'video',
    checkContent: (pair, source, output, signal) => (pair.outputFormat in SUBTITLE_OUTPUTS ? subtitles : media)(pair, source, output, signal),
    optionChecks: mediaOptionChecks(profileOf, ['mkv', 'mp4']),
    narrowed: [
      { option: 'sample_rate', where: 'webm outputs', reason: 'Opus (the default codec) always decodes at 48 kHz: no other rate was measured' },
      {
        option: 'crf',
        where: 'avi and flv outputs (video_codec h264), ogv outputs (video_codec vp8)',
        reason: 'the default codecs (MPEG-4 Part 2, Sorenson Spark, Theora) have no CRF: the size was identical at both values',
      },
      {
        option: 'preset',
        where: 'avi and flv outputs (video_codec h264), ogv outputs (video_codec vp8)',
        reason: 'the default codecs (MPEG-4 Part 2, Sorenson Spark, Theora) have no speed presets: the size was identical at both values',
      },
    ],
    async generateSample(inputFormat, dir, signal) {
      if (inputFormat in SUBTITLE_INPUTS) return writeSubtitleSample(inputFormat, dir, signal);
      const profile = VIDEO_OUTPUTS[inputFormat];
      if (profile) return writeMediaSample(inputFormat, profile, dir, signal);
      const args = READ_ONLY_SAMPLES[inputFormat];
      if (!args) throw new Error(`no sample recipe for ${inputFormat}`);
      const sample = join(dir, `sample.${inputFormat}`);
      await runEngine({
        command: 'ffmpeg',
        args: [
          '-nostdin',
          '-hide_banner',
          '-loglevel',
          'error',
          '-y',
          '-f',
          'lavfi',
          '-i',
          'testsrc2=size=160x120:rate=25:duration=1',
          '-f',
          'lavfi',
          '-i',
          'sine=frequency=440:sample_rate=44100:duration=1',
          ...args,
          sample,
        ],
        timeoutMs: 60_000,
        signal,
      });
      return sample;
    },
    verifyOutput(outputFormat, path) {
      if (outputFormat in SUBTITLE_OUTPUTS) return verifySubtitleOutput(outputFormat, path);
      const profile = VIDEO_OUTPUTS[outputFormat] ?? AUDIO_OUTPUTS[outputFormat];
      if (!profile) return Promise.reject(new Error(`the video family does not write ${outputFormat}`));
      return verifyMediaOutput(outputFormat, profile, path);
    },
  };
}
