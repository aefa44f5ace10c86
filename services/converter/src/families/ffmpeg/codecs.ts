/**
 * The encoders the media families use, by the codec name a user picks (the
 * `video_codec` / `audio_codec` option values). Each entry holds what ffmpeg
 * needs to encode it well by default; the output format tables
 * (`media-formats.ts`) say which codecs each container accepts.
 */

/** How a codec's speed/size trade-off is set, when it has one. */
export type PresetStyle = 'x26x' | 'vpx' | 'svtav1';

export interface VideoCodec {
  label: string;
  encoder: string;
  /** Always passed with this encoder. */
  args?: readonly string[];
  /** Pixel format players expect; without it, RGB sources would make 4:4:4 streams many players reject. */
  pixFmt?: string;
  /** Constant-quality scale, when the encoder has one. */
  crf?: {
    min: number;
    max: number;
    default: number;
    args?: readonly string[];
    /** The CRF is also the best quantizer any frame may use (-qmin): without it VP8 codes key frames at its best whatever the CRF. */
    floor?: boolean;
  };
  preset?: PresetStyle;
  /** False for encoders with a fixed or intrinsic rate (DV, raw, GIF). */
  bitrate: boolean;
  /**
   * libavcodec's own encoders: the share of the target bitrate the rate may
   * stray by (-bt). Their default tolerance, 4 Mbit/s, let 150 kbit/s asked
   * come out at 420-440; a tenth holds them within 10% of it.
   */
  rateTolerance?: number;
  /** MPEG-1/2 only accept the standard broadcast frame rates. */
  standardFps?: boolean;
  /** Frame sides must be a multiple of this (2 for 4:2:0). */
  multipleOf?: number;
}

/** How far libavcodec's own encoders may stray from a target bitrate (see `rateTolerance`). */
const LAVC_TOLERANCE = 0.1;

export const VIDEO_CODECS = {
  h264: { label: 'H.264 / AVC', encoder: 'libx264', pixFmt: 'yuv420p', crf: { min: 0, max: 51, default: 23 }, preset: 'x26x', bitrate: true, multipleOf: 2 },
  hevc: {
    label: 'H.265 / HEVC',
    encoder: 'libx265',
    args: ['-x265-params', 'log-level=error'],
    pixFmt: 'yuv420p',
    crf: { min: 0, max: 51, default: 28 },
    preset: 'x26x',
    bitrate: true,
    multipleOf: 2,
  },
  vp9: {
    label: 'VP9',
    encoder: 'libvpx-vp9',
    args: ['-row-mt', '1'],
    pixFmt: 'yuv420p',
    // libvpx only honours -crf as constant quality when the bitrate is 0.
    crf: { min: 0, max: 63, default: 32, args: ['-b:v', '0'] },
    preset: 'vpx',
    bitrate: true,
    multipleOf: 2,
  },
  vp8: {
    label: 'VP8',
    encoder: 'libvpx',
    pixFmt: 'yuv420p',
    // libvpx's VP8 caps quality by the bitrate even with -crf; a generous cap lets the crf decide.
    // Its first frame came out at 52.8 dB PSNR at CRF 16 and 51 alike: the floor holds key frames to the CRF too.
    crf: { min: 4, max: 63, default: 10, args: ['-b:v', '10M'], floor: true },
    preset: 'vpx',
    bitrate: true,
    multipleOf: 2,
  },
  av1: { label: 'AV1', encoder: 'libsvtav1', pixFmt: 'yuv420p', crf: { min: 0, max: 63, default: 35 }, preset: 'svtav1', bitrate: true, multipleOf: 2 },
  mpeg4: { label: 'MPEG-4 Part 2', encoder: 'mpeg4', pixFmt: 'yuv420p', bitrate: true, rateTolerance: LAVC_TOLERANCE, multipleOf: 2 },
  divx: { label: 'MPEG-4 Part 2 (DivX tag)', encoder: 'mpeg4', args: ['-vtag', 'DIVX'], pixFmt: 'yuv420p', bitrate: true, rateTolerance: LAVC_TOLERANCE, multipleOf: 2 },
  xvid: { label: 'MPEG-4 Part 2 (Xvid tag)', encoder: 'mpeg4', args: ['-vtag', 'XVID'], pixFmt: 'yuv420p', bitrate: true, rateTolerance: LAVC_TOLERANCE, multipleOf: 2 },
  mpeg1video: { label: 'MPEG-1', encoder: 'mpeg1video', pixFmt: 'yuv420p', bitrate: true, rateTolerance: LAVC_TOLERANCE, standardFps: true, multipleOf: 2 },
  mpeg2video: { label: 'MPEG-2', encoder: 'mpeg2video', pixFmt: 'yuv420p', bitrate: true, rateTolerance: LAVC_TOLERANCE, standardFps: true, multipleOf: 2 },
  theora: { label: 'Theora', encoder: 'libtheora', pixFmt: 'yuv420p', bitrate: true, multipleOf: 2 },
  msmpeg4v3: { label: 'MS MPEG-4 v3', encoder: 'msmpeg4', pixFmt: 'yuv420p', bitrate: true, rateTolerance: LAVC_TOLERANCE, multipleOf: 2 },
  wmv2: { label: 'Windows Media Video 8', encoder: 'wmv2', pixFmt: 'yuv420p', bitrate: true, rateTolerance: LAVC_TOLERANCE, multipleOf: 2 },
  wmv1: { label: 'Windows Media Video 7', encoder: 'wmv1', pixFmt: 'yuv420p', bitrate: true, rateTolerance: LAVC_TOLERANCE, multipleOf: 2 },
  flv1: { label: 'Sorenson Spark (FLV1)', encoder: 'flv', pixFmt: 'yuv420p', bitrate: true, rateTolerance: LAVC_TOLERANCE, multipleOf: 2 },
  mjpeg: { label: 'Motion JPEG', encoder: 'mjpeg', pixFmt: 'yuvj420p', bitrate: true, rateTolerance: LAVC_TOLERANCE, multipleOf: 2 },
  prores: { label: 'Apple ProRes 422', encoder: 'prores_ks', pixFmt: 'yuv422p10le', bitrate: false, multipleOf: 2 },
  ffv1: { label: 'FFV1 (lossless)', encoder: 'ffv1', bitrate: false },
  h263: { label: 'H.263', encoder: 'h263', pixFmt: 'yuv420p', bitrate: true, rateTolerance: LAVC_TOLERANCE, multipleOf: 2 },
  h261: { label: 'H.261', encoder: 'h261', pixFmt: 'yuv420p', bitrate: true, rateTolerance: LAVC_TOLERANCE, multipleOf: 2 },
  rv10: { label: 'RealVideo 1.0', encoder: 'rv10', pixFmt: 'yuv420p', bitrate: true, rateTolerance: LAVC_TOLERANCE, multipleOf: 16 },
  rv20: { label: 'RealVideo 2.0', encoder: 'rv20', pixFmt: 'yuv420p', bitrate: true, rateTolerance: LAVC_TOLERANCE, multipleOf: 16 },
  dvvideo: { label: 'DV', encoder: 'dvvideo', pixFmt: 'yuv420p', bitrate: false },
  cinepak: { label: 'Cinepak', encoder: 'cinepak', bitrate: false, multipleOf: 4 },
  amv: { label: 'AMV', encoder: 'amv', pixFmt: 'yuvj420p', bitrate: true, rateTolerance: LAVC_TOLERANCE, multipleOf: 16 },
  // The y4m muxer takes decoded frames as they are (wrapped_avframe), not rawvideo packets.
  rawvideo: { label: 'Uncompressed', encoder: 'wrapped_avframe', pixFmt: 'yuv420p', bitrate: false, multipleOf: 2 },
  gif: { label: 'GIF', encoder: 'gif', bitrate: false },
  dnxhr: { label: 'Avid DNxHR LB', encoder: 'dnxhd', args: ['-profile:v', 'dnxhr_lb'], pixFmt: 'yuv422p', bitrate: false, multipleOf: 16 },
} as const satisfies Record<string, VideoCodec>;

export type VideoCodecName = keyof typeof VIDEO_CODECS;

/** Sample rates most encoders take; the option lists only those a format's codecs accept. */
export const COMMON_SAMPLE_RATES = [8000, 11025, 16000, 22050, 32000, 44100, 48000, 96000] as const;

export interface AudioCodec {
  label: string;
  encoder: string;
  args?: readonly string[];
  /** Lossy codecs take a bitrate; lossless and PCM ones do not. */
  lossy: boolean;
  /** The rates the encoder accepts, when it does not take them all. */
  sampleRates?: readonly number[];
  /** The most channels the encoder writes. */
  maxChannels?: number;
  /** Bitrates (kbit/s) offered for a lossy codec. */
  bitrates?: readonly number[];
}

/** Bitrates offered for most lossy codecs. */
export const COMMON_BITRATES = [64, 96, 128, 160, 192, 256, 320] as const;

const MP3_RATES = [8000, 11025, 16000, 22050, 32000, 44100, 48000];
const AC3_RATES = [32000, 44100, 48000];

export const AUDIO_CODECS = {
  aac: { label: 'AAC', encoder: 'aac', lossy: true },
  mp3: { label: 'MP3', encoder: 'libmp3lame', lossy: true, sampleRates: MP3_RATES, maxChannels: 2 },
  opus: { label: 'Opus', encoder: 'libopus', lossy: true, sampleRates: [8000, 16000, 48000] },
  vorbis: { label: 'Vorbis', encoder: 'libvorbis', lossy: true },
  flac: { label: 'FLAC (lossless)', encoder: 'flac', lossy: false },
  alac: { label: 'Apple Lossless', encoder: 'alac', lossy: false },
  ac3: { label: 'Dolby Digital (AC-3)', encoder: 'ac3', lossy: true, sampleRates: AC3_RATES },
  eac3: { label: 'Dolby Digital Plus (E-AC-3)', encoder: 'eac3', lossy: true, sampleRates: AC3_RATES },
  mp2: { label: 'MPEG Layer II', encoder: 'mp2', lossy: true, sampleRates: [16000, 22050, 32000, 44100, 48000], maxChannels: 2 },
  wmav2: {
    label: 'Windows Media Audio 2',
    encoder: 'wmav2',
    lossy: true,
    sampleRates: [8000, 11025, 16000, 22050, 32000, 44100, 48000],
    maxChannels: 2,
    bitrates: [64, 96, 128, 160, 192],
  },
  wmav1: {
    label: 'Windows Media Audio 1',
    encoder: 'wmav1',
    lossy: true,
    sampleRates: [8000, 11025, 16000, 22050, 32000, 44100, 48000],
    maxChannels: 2,
    bitrates: [64, 96, 128, 160, 192],
  },
  speex: { label: 'Speex', encoder: 'libspeex', lossy: true, sampleRates: [8000, 16000, 32000], maxChannels: 2, bitrates: [] },
  dts: { label: 'DTS', encoder: 'dca', args: ['-strict', '-2'], lossy: true, sampleRates: [32000, 44100, 48000], bitrates: [] },
  pcm_s16le: { label: 'PCM 16-bit', encoder: 'pcm_s16le', lossy: false },
  pcm_s24le: { label: 'PCM 24-bit', encoder: 'pcm_s24le', lossy: false },
  pcm_f32le: { label: 'PCM 32-bit float', encoder: 'pcm_f32le', lossy: false },
  pcm_u8: { label: 'PCM 8-bit', encoder: 'pcm_u8', lossy: false },
  pcm_s16be: { label: 'PCM 16-bit big-endian', encoder: 'pcm_s16be', lossy: false },
  pcm_s24be: { label: 'PCM 24-bit big-endian', encoder: 'pcm_s24be', lossy: false },
  pcm_alaw: { label: 'A-law', encoder: 'pcm_alaw', lossy: false },
  pcm_mulaw: { label: 'µ-law', encoder: 'pcm_mulaw', lossy: false },
  adpcm_ms: { label: 'Microsoft ADPCM', encoder: 'adpcm_ms', lossy: false, maxChannels: 2 },
  adpcm_ima_wav: { label: 'IMA ADPCM', encoder: 'adpcm_ima_wav', lossy: false, maxChannels: 2 },
  tta: { label: 'True Audio', encoder: 'tta', lossy: false },
  pcm_s8: { label: 'PCM 8-bit signed', encoder: 'pcm_s8', lossy: false },
  pcm_u16le: { label: 'PCM 16-bit unsigned', encoder: 'pcm_u16le', lossy: false },
  pcm_s32le: { label: 'PCM 32-bit', encoder: 'pcm_s32le', lossy: false },
  pcm_s16be_planar: { label: 'PCM 16-bit big-endian planar', encoder: 'pcm_s16be_planar', lossy: false },
  adpcm_adx: { label: 'CRI ADX ADPCM', encoder: 'adpcm_adx', lossy: false },
  adpcm_g722: { label: 'G.722', encoder: 'g722', lossy: false },
  g723_1: { label: 'G.723.1', encoder: 'g723_1', args: ['-b:a', '6300'], lossy: false },
  gsm: { label: 'GSM 06.10', encoder: 'libgsm', lossy: false },
  dfpwm: { label: 'DFPWM', encoder: 'dfpwm', lossy: false },
  aptx: { label: 'aptX', encoder: 'aptx', lossy: false },
  aptx_hd: { label: 'aptX HD', encoder: 'aptx_hd', lossy: false },
  sbc: { label: 'SBC', encoder: 'sbc', lossy: false },
  adpcm_yamaha: { label: 'Yamaha ADPCM', encoder: 'adpcm_yamaha', lossy: false },
  adpcm_ima_ssi: { label: 'IMA ADPCM (Simon & Schuster)', encoder: 'adpcm_ima_ssi', lossy: false },
  adpcm_ima_alp: { label: 'IMA ADPCM (High Voltage)', encoder: 'adpcm_ima_alp', lossy: false },
  adpcm_ima_apm: { label: 'IMA ADPCM (Ubisoft APM)', encoder: 'adpcm_ima_apm', lossy: false },
  adpcm_ima_ws: { label: 'IMA ADPCM (Westwood)', encoder: 'adpcm_ima_ws', lossy: false },
  adpcm_ima_amv: { label: 'IMA ADPCM (AMV)', encoder: 'adpcm_ima_amv', args: ['-block_size', '882'], lossy: false },
  codec2: { label: 'Codec 2', encoder: 'libcodec2', lossy: false },
  mlp: { label: 'Meridian Lossless Packing', encoder: 'mlp', args: ['-strict', '-2'], lossy: false },
  truehd: { label: 'Dolby TrueHD', encoder: 'truehd', args: ['-strict', '-2'], lossy: false },
  wavpack: { label: 'WavPack', encoder: 'wavpack', lossy: false },
} as const satisfies Record<string, AudioCodec>;

export type AudioCodecName = keyof typeof AUDIO_CODECS;
