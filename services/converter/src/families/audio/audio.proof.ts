import type { FamilyProof } from '../../matrix/family-proof';
import { verifyMediaOutput, writeMediaSample } from '../ffmpeg/media-proof';
import { AUDIO_OUTPUTS } from './audio-formats';

export function audioProof(): FamilyProof {
  return {
    family: 'audio',
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
