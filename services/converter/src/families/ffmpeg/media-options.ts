import type { ConversionOption } from '@transmute/contracts';
import { AUDIO_CODECS, VIDEO_CODECS, type VideoCodec } from './codecs';
import type { OutputProfile } from './media-profile';
import { CHANNELS, FRAME_RATES, MAX_SIDE, MAX_TRIM_SEC, MAX_VIDEO_KBPS, PRESETS, audioBitrates, sampleRates } from './media-settings';
import { numberOption, selectOption } from '../option-builders';

/**
 * The options one media pair accepts, derived from the output's profile so
 * that every value offered is one the format takes: codec lists are the
 * container's, sample rates and bitrates those of its default codec.
 */
export function mediaOptions(profile: OutputProfile): ConversionOption[] {
  return [...(profile.video ? videoOptions(profile.video) : []), ...(profile.audio ? audioOptions(profile.audio) : []), ...trimOptions()];
}

function videoOptions(video: NonNullable<OutputProfile['video']>): ConversionOption[] {
  const options: ConversionOption[] = [];
  const codecs = video.codecs.map((name) => [name, VIDEO_CODECS[name] as VideoCodec] as const);
  if (codecs.length > 1) {
    options.push(
      selectOption({
        name: 'video_codec',
        label: 'Video codec',
        description: 'The video codec, from those this output format can hold.',
        group: 'video',
        values: codecs.map(([name, codec]) => [name, codec.label]),
        default: video.codecs[0],
      }),
    );
  }
  const crfCodec = codecs.find(([, codec]) => codec.crf);
  const crf = crfCodec?.[1].crf;
  const bitrate = codecs.some(([, codec]) => codec.bitrate);
  const presetCodec = codecs.find(([, codec]) => codec.preset);
  if (crf && bitrate) {
    options.push(
      selectOption({
        name: 'rate_control',
        label: 'Rate control',
        description: 'Constant quality (CRF) lets the size vary; a target bitrate fixes the size and lets quality vary.',
        group: 'video',
        values: [
          ['crf', 'Constant quality (CRF)'],
          ['bitrate', 'Target bitrate'],
        ],
        default: 'crf',
      }),
    );
  }
  if (crf) {
    options.push(
      numberOption({
        name: 'crf',
        type: 'range',
        label: 'Quality (CRF)',
        description: `Constant rate factor: lower is better quality and a larger file. Range of the default codec; other codecs clamp to theirs.`,
        group: 'video',
        min: crf.min,
        max: crf.max,
        step: 1,
        default: crf.default,
        appliesWhen: { ...(bitrate ? { rate_control: 'crf' } : {}), ...onlyWith(video.codecs[0], crfCodec?.[0]) },
      }),
    );
  }
  if (bitrate) {
    options.push(
      numberOption({
        name: 'video_bitrate',
        label: 'Video bitrate (kbit/s)',
        description: 'Target video bitrate in kilobits per second; empty lets the encoder choose.',
        group: 'video',
        min: 50,
        max: MAX_VIDEO_KBPS,
        appliesWhen: crf ? { rate_control: 'bitrate' } : undefined,
      }),
    );
  }
  if (presetCodec) {
    options.push(
      selectOption({
        name: 'preset',
        label: 'Encoding speed',
        description: 'Slower presets spend more time for a smaller file at the same quality (H.264, HEVC, VP8/VP9, AV1).',
        group: 'video',
        values: PRESETS.map((preset) => [preset, preset]),
        default: 'medium',
        appliesWhen: onlyWith(video.codecs[0], presetCodec[0]),
      }),
    );
  }
  if (!video.fixedSize) {
    options.push(
      numberOption({
        name: 'width',
        label: 'Width',
        description: 'Frame width in pixels; empty keeps the source width, or follows the height keeping proportions.',
        group: 'size',
        min: 16,
        max: MAX_SIDE,
      }),
      numberOption({
        name: 'height',
        label: 'Height',
        description: 'Frame height in pixels; empty keeps the source height, or follows the width keeping proportions.',
        group: 'size',
        min: 16,
        max: MAX_SIDE,
      }),
    );
  }
  if (video.fixedFps === undefined) {
    options.push(
      selectOption({
        name: 'fps',
        label: 'Frame rate',
        description: 'Frames per second of the result; empty keeps the source rate.',
        group: 'video',
        values: FRAME_RATES.map((rate) => [String(rate), `${rate} fps`]),
      }),
    );
  }
  return options;
}

/**
 * The codec an option needs when the container's default codec ignores it
 * (CRF and presets are x264/x265, libvpx and SVT-AV1 settings; AVI's MPEG-4,
 * FLV's Sorenson Spark and Ogg's Theora have neither). applies_when names one
 * value: the first codec that honours the option.
 */
function onlyWith(defaultCodec: string, honouring: string | undefined): Record<string, string> | undefined {
  return honouring === undefined || honouring === defaultCodec ? undefined : { video_codec: honouring };
}

function audioOptions(audio: NonNullable<OutputProfile['audio']>): ConversionOption[] {
  const options: ConversionOption[] = [];
  const first = audio.codecs[0];
  if (audio.codecs.length > 1) {
    options.push(
      selectOption({
        name: 'audio_codec',
        label: 'Audio codec',
        description: 'The audio codec, from those this output format can hold.',
        group: 'audio',
        values: audio.codecs.map((name) => [name, AUDIO_CODECS[name].label]),
        default: first,
      }),
    );
  }
  const lossy = audio.codecs.find((name) => audioBitrates(name).length > 0);
  const bitrates = lossy ? audioBitrates(lossy) : [];
  if (bitrates.length > 0) {
    options.push(
      selectOption({
        name: 'audio_bitrate',
        label: 'Audio bitrate (kbit/s)',
        description: "Audio bitrate of a lossy codec; higher keeps more detail. Empty: the encoder's choice for the rate and layout. Lossless codecs ignore it.",
        group: 'audio',
        values: [...bitrates].sort((a, b) => a - b).map((rate) => [String(rate), `${rate} kbit/s`]),
      }),
    );
  }
  // Opus always decodes at 48 kHz: the option check measured no other rate whatever was asked.
  if (audio.fixedSampleRate === undefined && first !== 'opus') {
    options.push(
      selectOption({
        name: 'sample_rate',
        label: 'Sample rate',
        description: 'Samples per second; empty keeps the source rate.',
        group: 'audio',
        values: sampleRates(first).map((rate) => [String(rate), `${rate} Hz`]),
      }),
    );
  }
  if (audio.fixedChannels === undefined) {
    options.push(
      selectOption({
        name: 'channels',
        label: 'Channels',
        description: 'Mono or stereo; empty keeps the source layout.',
        group: 'audio',
        values: CHANNELS.map((count) => [String(count), count === 1 ? 'Mono' : 'Stereo']),
      }),
    );
  }
  return options;
}

function trimOptions(): ConversionOption[] {
  return [
    numberOption({
      name: 'trim_start',
      label: 'Start at (s)',
      description: 'Seconds to skip from the start of the input.',
      group: 'trim',
      min: 0,
      max: MAX_TRIM_SEC,
      default: 0,
    }),
    numberOption({
      name: 'trim_end',
      label: 'End at (s)',
      description: 'Second of the input at which the result ends; empty keeps everything to the end.',
      group: 'trim',
      min: 1,
      max: MAX_TRIM_SEC,
    }),
  ];
}
