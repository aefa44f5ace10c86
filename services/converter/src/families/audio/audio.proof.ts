import type { FamilyProof } from '../../matrix/family-proof';
import { mediaContentCheck } from '../ffmpeg/media-fidelity';
import { mediaOptionChecks } from '../ffmpeg/media.option-checks';
import { verifyMediaOutput, writeMediaSample } from '../ffmpeg/media-proof';
import { AUDIO_OUTPUTS } from './audio-formats';

export function audioProof(): FamilyProof {
  const profileOf = (format: string) => AUDIO_OUTPUTS[format];
  return {
    family: 'audio',
    checkContent: mediaContentCheck(profileOf),
    optionChecks: mediaOptionChecks(profileOf, ['wav', 'flac']),
    narrowed: ['opus', 'mka'].map((output) => ({
      option: 'sample_rate',
      where: `${output} outputs`,
      reason: 'Opus (the default codec) always decodes at 48 kHz: no other rate was measured',
    })),
    generateSample(inputFormat, dir, signal) {
      const profile = AUDIO_OUTPUTS[inputFormat];
      if (!profile) return Promise.reject(new Error(`no sample recipe for ${inputFormat}`));
      return writeMediaSample(inputFormat, profile, dir, signal);
    },
    verifyOutput(outputFormat, path) {
      const profile = AUDIO_OUTPUTS[outputFormat];
      if (!profile) return Promise.reject(new Error(`the audio family does not write ${outputFormat}`));
      return verifyMediaOutput(outputFormat, profile, path);
    },
  };
}
