import type { AudioCodecName, VideoCodecName } from './codecs';

/**
 * How ffmpeg writes one output format: the muxer, the codecs the container
 * takes (the first is the default), and what the format fixes. The video and
 * audio families keep one table of these each; every entry is proven by the
 * matrix (`pnpm matrix --family video|audio`).
 */
export interface OutputProfile {
  /** ffmpeg's muxer, always named: several extensions share one, and the extension alone is not always enough. */
  muxer: string;
  muxerArgs?: readonly string[];
  video?: {
    codecs: readonly [VideoCodecName, ...VideoCodecName[]];
    /** The format only takes this frame size (DV, GXF, H.261/H.263); the picture is letterboxed into it. */
    fixedSize?: readonly [number, number];
    fixedFps?: number;
    /** Codec tags the container wants (e.g. hvc1 for HEVC in MP4, which Apple players require). */
    tags?: Partial<Record<VideoCodecName, string>>;
  };
  audio?: {
    codecs: readonly [AudioCodecName, ...AudioCodecName[]];
    /** Raw and telephony formats store no rate or layout, or take only one. */
    fixedSampleRate?: number;
    fixedChannels?: number;
    /** An audio filter the format needs (DV muxes audio per frame, so the sound must start at 0 with no gaps). */
    filter?: string;
  };
}

/** What ffprobe says about an input. */
export interface MediaProbe {
  durationSec?: number;
  fps?: number;
  hasVideo: boolean;
  hasAudio: boolean;
  /** Channels of the first audio stream. */
  audioChannels?: number;
  /** A raw stream whose demuxer gives no usable timestamps (Dirac): its frame rate must be stated on input. */
  untimed?: boolean;
  /** The container pads its last sound packet with silence past its stated length (GXF): the output is cut there. */
  paddedAudio?: boolean;
}
