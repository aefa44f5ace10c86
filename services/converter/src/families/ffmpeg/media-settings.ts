import { AUDIO_CODECS, type AudioCodecName, COMMON_BITRATES, COMMON_SAMPLE_RATES, VIDEO_CODECS, type VideoCodecName } from './codecs';
import type { OutputProfile } from './media-profile';
import { choiceIn, integerIn } from '../option-builders';

export const PRESETS = ['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium', 'slow', 'slower', 'veryslow'] as const;
export type Preset = (typeof PRESETS)[number];
export const FRAME_RATES = [24, 25, 30, 50, 60] as const;
export const CHANNELS = [1, 2] as const;
export const MAX_SIDE = 7680;
export const MAX_VIDEO_KBPS = 100_000;
/** A day: long enough for any real recording, small enough to stay an integer of seconds. */
export const MAX_TRIM_SEC = 86_400;

/** The task's options, read against one output profile: anything unknown, out of range or not for this format is dropped. */
export interface MediaSettings {
  videoCodec?: VideoCodecName;
  audioCodec?: AudioCodecName;
  rateControl: 'crf' | 'bitrate';
  crf?: number;
  videoBitrateKbps?: number;
  preset?: Preset;
  width?: number;
  height?: number;
  fps?: number;
  audioBitrateKbps?: number;
  sampleRate?: number;
  channels?: number;
  trimStartSec?: number;
  trimEndSec?: number;
}

export function mediaSettings(options: Readonly<Record<string, unknown>>, profile: OutputProfile): MediaSettings {
  const videoCodec = profile.video ? (choiceIn(options['video_codec'], profile.video.codecs) ?? profile.video.codecs[0]) : undefined;
  const audioCodec = profile.audio ? (choiceIn(options['audio_codec'], profile.audio.codecs) ?? profile.audio.codecs[0]) : undefined;
  const crfRange = videoCodec ? (VIDEO_CODECS[videoCodec] as { crf?: { min: number; max: number } }).crf : undefined;
  const trimStartSec = integerIn(options['trim_start'], 0, MAX_TRIM_SEC) || undefined;
  const trimEnd = integerIn(options['trim_end'], 1, MAX_TRIM_SEC);
  return {
    videoCodec,
    audioCodec,
    rateControl: options['rate_control'] === 'bitrate' ? 'bitrate' : 'crf',
    crf: crfRange ? integerIn(options['crf'], crfRange.min, crfRange.max) : undefined,
    videoBitrateKbps: integerIn(options['video_bitrate'], 50, MAX_VIDEO_KBPS),
    preset: choiceIn(options['preset'], PRESETS),
    width: integerIn(options['width'], 16, MAX_SIDE),
    height: integerIn(options['height'], 16, MAX_SIDE),
    fps: choiceIn(options['fps'], FRAME_RATES),
    audioBitrateKbps: audioCodec ? choiceIn(options['audio_bitrate'], audioBitrates(audioCodec)) : undefined,
    sampleRate: audioCodec ? choiceIn(options['sample_rate'], sampleRates(audioCodec)) : undefined,
    channels: choiceIn(options['channels'], CHANNELS),
    trimStartSec,
    // An end at or before the start is no trim at all rather than an empty file.
    trimEndSec: trimEnd !== undefined && trimEnd > (trimStartSec ?? 0) ? trimEnd : undefined,
  };
}

/** The bitrates (kbit/s) a lossy audio codec is offered with, default first; none for lossless ones. */
export function audioBitrates(codec: AudioCodecName): readonly number[] {
  const entry = AUDIO_CODECS[codec] as { lossy: boolean; bitrates?: readonly number[] };
  if (!entry.lossy) return [];
  return entry.bitrates ?? COMMON_BITRATES;
}

/** The sample rates an audio codec accepts, from the common ones. */
export function sampleRates(codec: AudioCodecName): readonly number[] {
  const entry = AUDIO_CODECS[codec] as { sampleRates?: readonly number[] };
  return entry.sampleRates ?? COMMON_SAMPLE_RATES;
}
