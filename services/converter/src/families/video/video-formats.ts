import type { OutputProfile } from '../ffmpeg/media-profile';

/** Broadcast muxers interleave sound per frame: it must start at 0 and have no gaps (Vorbis/AAC priming leaves some). */
const SYNCED_AUDIO = 'aresample=async=1:first_pts=0';
const MP4_AUDIO = ['aac', 'mp3', 'ac3'] as const;
const TS: OutputProfile = { muxer: 'mpegts', video: { codecs: ['h264', 'hevc', 'mpeg2video'] }, audio: { codecs: ['aac', 'mp2', 'ac3'] } };
const MPEG_PS: OutputProfile = { muxer: 'mpeg', video: { codecs: ['mpeg2video', 'mpeg1video'] }, audio: { codecs: ['mp2', 'ac3'] } };
const ASF: OutputProfile = { muxer: 'asf', video: { codecs: ['wmv2', 'wmv1', 'msmpeg4v3'] }, audio: { codecs: ['wmav2', 'wmav1'] } };
const MOV: OutputProfile = {
  muxer: 'mov',
  video: { codecs: ['h264', 'hevc', 'prores', 'mpeg4', 'mjpeg'], tags: { hevc: 'hvc1' } },
  audio: { codecs: ['aac', 'alac', 'pcm_s16le', 'mp3'] },
};
const H264_RAW: OutputProfile = { muxer: 'h264', video: { codecs: ['h264'] } };
const HEVC_RAW: OutputProfile = { muxer: 'hevc', video: { codecs: ['hevc'] } };
const MJPEG_RAW: OutputProfile = { muxer: 'mjpeg', video: { codecs: ['mjpeg'] } };
const DV: OutputProfile = {
  muxer: 'dv',
  video: { codecs: ['dvvideo'], fixedSize: [720, 576], fixedFps: 25 },
  audio: { codecs: ['pcm_s16le'], fixedSampleRate: 48000, fixedChannels: 2, filter: SYNCED_AUDIO },
};
const THREE_GP: OutputProfile = { muxer: '3gp', video: { codecs: ['h264', 'mpeg4'] }, audio: { codecs: ['aac'] } };
const OGG_VIDEO: OutputProfile = { muxer: 'ogg', video: { codecs: ['theora', 'vp8'] }, audio: { codecs: ['vorbis', 'opus', 'flac'] } };
const F4V: OutputProfile = { muxer: 'f4v', video: { codecs: ['h264'] }, audio: { codecs: ['aac'] } };
const MPEG2_RAW: OutputProfile = { muxer: 'mpeg2video', video: { codecs: ['mpeg2video'] } };
const MATROSKA: OutputProfile = {
  muxer: 'matroska',
  video: { codecs: ['h264', 'hevc', 'vp9', 'av1', 'vp8', 'mpeg4', 'ffv1'] },
  audio: { codecs: ['aac', 'opus', 'vorbis', 'flac', 'mp3', 'ac3'] },
};
const REALMEDIA: OutputProfile = { muxer: 'rm', video: { codecs: ['rv20', 'rv10'] }, audio: { codecs: ['ac3'] } };

/**
 * Every format the video family can write, by extension: the targets below,
 * and the samples the matrix makes of every readable format. Formats that need more
 * than ffmpeg's defaults say so here (fixed frame sizes, rates, sample
 * rates); formats ffmpeg cannot write on Debian 12 are absent (AVS, CAVS and
 * VC-1 have no encoder; ROQ and filmstrip write files ffmpeg cannot read back).
 */
export const VIDEO_OUTPUTS: Record<string, OutputProfile> = {
  mp4: { muxer: 'mp4', video: { codecs: ['h264', 'hevc', 'av1', 'vp9', 'mpeg4'], tags: { hevc: 'hvc1' } }, audio: { codecs: [...MP4_AUDIO] } },
  m4v: { muxer: 'mp4', video: { codecs: ['h264', 'hevc', 'mpeg4'], tags: { hevc: 'hvc1' } }, audio: { codecs: ['aac', 'ac3'] } },
  mov: MOV,
  qt: MOV,
  mkv: MATROSKA,
  // Stereoscopic Matroska: the same container under its own extension.
  mk3d: MATROSKA,
  webm: { muxer: 'webm', video: { codecs: ['vp9', 'vp8', 'av1'] }, audio: { codecs: ['opus', 'vorbis'] } },
  avi: { muxer: 'avi', video: { codecs: ['mpeg4', 'h264', 'mjpeg', 'msmpeg4v3', 'ffv1'] }, audio: { codecs: ['mp3', 'ac3', 'pcm_s16le'] } },
  divx: { muxer: 'avi', video: { codecs: ['divx'] }, audio: { codecs: ['mp3', 'ac3'] } },
  // FLV and SWF store MP3 only at 44.1/22.05/11.025 kHz.
  flv: { muxer: 'flv', video: { codecs: ['flv1', 'h264'] }, audio: { codecs: ['mp3', 'aac'], fixedSampleRate: 44100 } },
  f4v: F4V,
  f4p: F4V,
  swf: { muxer: 'swf', video: { codecs: ['flv1'] }, audio: { codecs: ['mp3'], fixedSampleRate: 44100 } },
  wmv: ASF,
  asf: ASF,
  wm: ASF,
  mpg: MPEG_PS,
  mpeg: MPEG_PS,
  mpe: MPEG_PS,
  m2p: MPEG_PS,
  // DVD-VR and HD DVD recordings are MPEG program streams.
  vro: MPEG_PS,
  evo: MPEG_PS,
  vob: { muxer: 'vob', video: { codecs: ['mpeg2video'] }, audio: { codecs: ['ac3', 'mp2'] } },
  ts: TS,
  mts: TS,
  m2t: TS,
  trp: TS,
  tp: TS,
  // JVC camcorder recordings are MPEG transport streams.
  tod: TS,
  // Blu-ray's M2TS adds a 4-byte timestamp to every packet.
  m2ts: { ...TS, muxerArgs: ['-mpegts_m2ts_mode', '1'] },
  '3gp': THREE_GP,
  '3gpp': THREE_GP,
  '3g2': { muxer: '3g2', video: { codecs: ['h264', 'mpeg4'] }, audio: { codecs: ['aac'] } },
  ogv: OGG_VIDEO,
  ogm: OGG_VIDEO,
  // MXF, GXF and DV are broadcast formats: 25 fps, 48 kHz, and for GXF/DV the PAL frame.
  mxf: { muxer: 'mxf', video: { codecs: ['mpeg2video'], fixedFps: 25 }, audio: { codecs: ['pcm_s16le'], fixedSampleRate: 48000 } },
  gxf: {
    muxer: 'gxf',
    video: { codecs: ['mpeg2video'], fixedSize: [720, 576], fixedFps: 25 },
    audio: { codecs: ['pcm_s16le'], fixedSampleRate: 48000, fixedChannels: 1, filter: SYNCED_AUDIO },
  },
  // DV's other extension, .dif, is left to the document family (Data Interchange Format spreadsheets).
  dv: DV,
  nut: { muxer: 'nut', video: { codecs: ['mpeg4', 'h264', 'ffv1', 'vp9'] }, audio: { codecs: ['vorbis', 'flac', 'mp3', 'aac', 'opus'] } },
  rm: REALMEDIA,
  rmvb: REALMEDIA,
  // AMV's audio blocks must hold exactly one frame: 22.05 kHz mono at 25 fps is 882 samples.
  amv: { muxer: 'amv', video: { codecs: ['amv'], fixedFps: 25 }, audio: { codecs: ['adpcm_ima_amv'], fixedSampleRate: 22050, fixedChannels: 1 } },
  wtv: { muxer: 'wtv', video: { codecs: ['mpeg2video', 'h264'] }, audio: { codecs: ['ac3', 'mp2'] } },
  ismv: { muxer: 'ismv', video: { codecs: ['h264'] }, audio: { codecs: ['aac'] } },
  psp: { muxer: 'psp', video: { codecs: ['h264'] }, audio: { codecs: ['aac'] } },
  cpk: { muxer: 'film_cpk', video: { codecs: ['cinepak'] }, audio: { codecs: ['pcm_s16be_planar'] } },
  y4m: { muxer: 'yuv4mpegpipe', video: { codecs: ['rawvideo'] } },
  h264: H264_RAW,
  '264': H264_RAW,
  avc: H264_RAW,
  hevc: HEVC_RAW,
  h265: HEVC_RAW,
  '265': HEVC_RAW,
  m1v: { muxer: 'mpeg1video', video: { codecs: ['mpeg1video'] } },
  m2v: MPEG2_RAW,
  mpv: MPEG2_RAW,
  ivf: { muxer: 'ivf', video: { codecs: ['vp9', 'vp8', 'av1'] } },
  obu: { muxer: 'obu', video: { codecs: ['av1'] } },
  mjpeg: MJPEG_RAW,
  mjpg: MJPEG_RAW,
  // H.261 and H.263 (baseline) only code the CIF family of frame sizes.
  h261: { muxer: 'h261', video: { codecs: ['h261'], fixedSize: [176, 144] } },
  h263: { muxer: 'h263', video: { codecs: ['h263'], fixedSize: [176, 144] } },
  gif: { muxer: 'gif', video: { codecs: ['gif'] } },
};

/**
 * Formats the family reads but does not write: ffmpeg decodes them, and the
 * proof makes samples with encoders too specialised to offer as targets.
 */
export const VIDEO_READ_ONLY = ['dnxhd', 'dnxhr', 'drc', 'vc2', 'roq'] as const;

/**
 * What every readable video converts to: the formats people ask for. Each
 * listed pair costs a real conversion in the full matrix, so the rarer
 * writable formats (MXF, DV, raw streams...) are read, not offered.
 */
export const VIDEO_TARGETS = ['mp4', 'mkv', 'webm', 'mov', 'avi', 'flv', 'wmv', 'mpg', 'ts', '3gp', 'ogv', 'gif'] as const;

/** Audio formats a video's sound track can be extracted to (profiles from the audio family's table). */
export const EXTRACTED_AUDIO = ['mp3', 'wav', 'flac', 'm4a', 'ogg', 'aac'] as const;

/** Inputs that never carry sound: raw video streams and silent animation. No audio pairs are listed for them. */
export const SILENT_INPUTS = new Set<string>([
  ...Object.entries(VIDEO_OUTPUTS)
    .filter(([, profile]) => !profile.audio)
    .map(([format]) => format),
  ...VIDEO_READ_ONLY,
]);
