import type { OutputProfile } from '../ffmpeg/media-profile';

const audio = (muxer: string, codecs: NonNullable<OutputProfile['audio']>['codecs'], fixed: { rate?: number; channels?: number } = {}): OutputProfile => ({
  muxer,
  audio: { codecs, fixedSampleRate: fixed.rate, fixedChannels: fixed.channels },
});

const AIFF = audio('aiff', ['pcm_s16be', 'pcm_s24be']);
const AU = audio('au', ['pcm_s16be', 'pcm_alaw', 'pcm_mulaw']);
const EAC3 = audio('eac3', ['eac3']);
const ADTS = audio('adts', ['aac']);
const MP4_AUDIO = audio('ipod', ['aac', 'alac']);
const MP2 = audio('mp2', ['mp2']);
const IRCAM = audio('ircam', ['pcm_s16le']);
const LOAS = audio('latm', ['aac']);
const G723 = audio('g723_1', ['g723_1'], { rate: 8000, channels: 1 });
/** Headerless PCM: nothing in the file says its rate or layout, so it is written the way ffmpeg reads it back (44.1 kHz mono). */
const RAW_PCM = { rate: 44100, channels: 1 };

/**
 * Every format the audio family can write, by extension: the targets below,
 * and the samples the matrix makes of every readable format. Each names ffmpeg's
 * muxer and the codecs it takes (default first). Formats that need more
 * than ffmpeg's defaults fix their rate or layout here; those Debian's ffmpeg
 * cannot write (AMR, iLBC, G.729, ATRAC/OMA, ADPCM PSX) are absent.
 */
export const AUDIO_OUTPUTS: Record<string, OutputProfile> = {
  mp3: audio('mp3', ['mp3']),
  wav: audio('wav', ['pcm_s16le', 'pcm_s24le', 'pcm_f32le', 'pcm_u8', 'pcm_alaw', 'pcm_mulaw', 'adpcm_ms', 'adpcm_ima_wav']),
  // Broadcast Wave: WAV with the bext chunk; RF64: WAV with 64-bit sizes, for files past 4 GiB.
  bwf: { muxer: 'wav', muxerArgs: ['-write_bext', '1'], audio: { codecs: ['pcm_s16le', 'pcm_s24le'] } },
  rf64: { muxer: 'wav', muxerArgs: ['-rf64', 'always'], audio: { codecs: ['pcm_s16le', 'pcm_s24le', 'pcm_f32le'] } },
  flac: audio('flac', ['flac']),
  aac: ADTS,
  adts: ADTS,
  m4a: MP4_AUDIO,
  m4b: MP4_AUDIO,
  m4r: MP4_AUDIO,
  f4a: audio('f4v', ['aac']),
  // Android's voice recorders: AAC in a 3GPP file.
  '3ga': audio('3gp', ['aac']),
  isma: audio('ismv', ['aac']),
  ogg: audio('ogg', ['vorbis', 'opus', 'flac', 'speex']),
  oga: audio('oga', ['flac', 'vorbis', 'opus']),
  opus: audio('opus', ['opus']),
  weba: audio('webm', ['opus', 'vorbis']),
  spx: audio('spx', ['speex']),
  wma: audio('asf', ['wmav2', 'wmav1']),
  ac3: audio('ac3', ['ac3']),
  eac3: EAC3,
  ec3: EAC3,
  dts: audio('dts', ['dts']),
  aif: AIFF,
  aiff: AIFF,
  aifc: AIFF,
  afc: AIFF,
  caf: audio('caf', ['pcm_s16be', 'alac', 'pcm_s24be']),
  au: AU,
  snd: AU,
  mka: audio('matroska', ['opus', 'vorbis', 'flac', 'aac', 'mp3', 'ac3', 'pcm_s16le']),
  mp2: MP2,
  m2a: MP2,
  mpa: MP2,
  tta: audio('tta', ['tta']),
  wv: audio('wv', ['wavpack']),
  w64: audio('w64', ['pcm_s16le', 'pcm_s24le', 'pcm_f32le']),
  voc: audio('voc', ['pcm_s16le', 'pcm_u8']),
  ast: audio('ast', ['pcm_s16be_planar']),
  adx: audio('adx', ['adpcm_adx']),
  sox: audio('sox', ['pcm_s32le']),
  sf: IRCAM,
  ircam: IRCAM,
  rso: audio('rso', ['pcm_u8'], { channels: 1 }),
  ra: audio('rm', ['ac3']),
  al: audio('alaw', ['pcm_alaw'], RAW_PCM),
  ul: audio('mulaw', ['pcm_mulaw'], RAW_PCM),
  sw: audio('s16le', ['pcm_s16le'], RAW_PCM),
  sb: audio('s8', ['pcm_s8'], RAW_PCM),
  uw: audio('u16le', ['pcm_u16le'], RAW_PCM),
  ub: audio('u8', ['pcm_u8'], RAW_PCM),
  gsm: audio('gsm', ['gsm'], { rate: 8000, channels: 1 }),
  g722: audio('g722', ['adpcm_g722'], { rate: 16000, channels: 1 }),
  tco: G723,
  rco: G723,
  c2: audio('codec2', ['codec2'], { rate: 8000, channels: 1 }),
  dfpwm: audio('dfpwm', ['dfpwm'], { rate: 48000, channels: 1 }),
  aptx: audio('aptx', ['aptx'], { rate: 48000, channels: 2 }),
  aptxhd: audio('aptx_hd', ['aptx_hd'], { rate: 48000, channels: 2 }),
  sbc: audio('sbc', ['sbc']),
  mmf: audio('mmf', ['adpcm_yamaha'], { rate: 22050, channels: 1 }),
  vag: audio('kvag', ['adpcm_ima_ssi']),
  latm: LOAS,
  loas: LOAS,
  tun: audio('alp', ['adpcm_ima_alp'], { rate: 22050 }),
  apm: audio('apm', ['adpcm_ima_apm']),
  aud: audio('wsaud', ['adpcm_ima_ws']),
  mlp: audio('mlp', ['mlp'], { rate: 48000 }),
  thd: audio('truehd', ['truehd'], { rate: 48000 }),
  spdif: audio('spdif', ['ac3'], { rate: 48000 }),
};

/**
 * What every readable audio file converts to: the formats people ask for.
 * Each listed pair costs a real conversion in the full matrix, so the rarer
 * writable formats (telephony, raw PCM, game audio...) are read, not offered.
 */
export const AUDIO_TARGETS = ['mp3', 'wav', 'flac', 'aac', 'm4a', 'm4b', 'ogg', 'opus', 'wma', 'ac3', 'aiff', 'mka', 'caf', 'wv'] as const;
