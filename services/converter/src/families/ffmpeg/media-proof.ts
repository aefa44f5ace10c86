import { join } from 'node:path';
import { runEngine } from '../../engine/run-engine';
import { convertMedia } from './media-engine';
import type { OutputProfile } from './media-profile';

/** ffprobe's demuxer name for what each muxer writes, where the two differ. */
const DEMUXER_OF: Record<string, string> = {
  mp4: 'mov',
  ipod: 'mov',
  '3gp': 'mov',
  '3g2': 'mov',
  f4v: 'mov',
  psp: 'mov',
  ismv: 'mov',
  webm: 'matroska',
  vob: 'mpeg',
  yuv4mpegpipe: 'yuv4mpegpipe',
  mjpeg: 'jpeg_pipe',
  mpeg1video: 'mpegvideo',
  mpeg2video: 'mpegvideo',
  amv: 'avi',
  adts: 'aac',
  mp2: 'mp3',
  oga: 'ogg',
  opus: 'ogg',
  spx: 'ogg',
  latm: 'loas',
  film_cpk: 'film_cpk',
  g723_1: 'g723_1',
  aptx_hd: 'aptx_hd',
};

/**
 * Writes a sample of `profile`'s format (1 s unless asked): a lavfi test pattern and tone
 * (160x120, 25 fps, 44.1 kHz stereo) encoded losslessly into a master, then
 * written through the same ffmpeg path a task takes.
 */
export async function writeMediaSample(format: string, profile: OutputProfile, dir: string, signal: AbortSignal, seconds = 1): Promise<string> {
  const master = join(dir, 'master.mkv');
  const video = profile.video ? ['-f', 'lavfi', '-i', `testsrc2=size=160x120:rate=25:duration=${seconds}`] : [];
  await runEngine({
    command: 'ffmpeg',
    args: [
      '-nostdin',
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      ...video,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:sample_rate=44100:duration=${seconds}`,
      ...(profile.video ? ['-c:v', 'ffv1'] : []),
      '-c:a',
      'flac',
      '-ac',
      '2',
      master,
    ],
    timeoutMs: 60_000,
    signal,
  });
  const sample = join(dir, `sample.${format}`);
  await convertMedia({ inputPath: master, outputPath: sample, inputFormat: 'mkv', outputFormat: format, options: {}, signal, reportProgress: () => undefined }, profile);
  return sample;
}

/**
 * Proves `path` is a readable `profile` file: ffprobe finds the right
 * container and, reading the whole file, counts packets of the stream the
 * format is for.
 */
export async function verifyMediaOutput(format: string, profile: OutputProfile, path: string): Promise<void> {
  const signal = AbortSignal.timeout(120_000);
  const { stdout } = await runEngine({
    command: 'ffprobe',
    args: ['-v', 'error', '-count_packets', '-show_entries', 'format=format_name:stream=codec_type,nb_read_packets', '-of', 'json', path],
    timeoutMs: 120_000,
    signal,
  });
  const probe = JSON.parse(stdout) as { format?: { format_name?: string }; streams?: { codec_type?: string; nb_read_packets?: string }[] };
  const demuxer = DEMUXER_OF[profile.muxer] ?? profile.muxer;
  const found = (probe.format?.format_name ?? '').split(',');
  // Raw MJPEG is read by the jpeg_pipe or the mjpeg demuxer, depending on the probe.
  if (!found.includes(demuxer) && !found.includes(profile.muxer)) throw new Error(`${format}: ffprobe reads it as ${found.join(',') || 'nothing'}, not ${demuxer}`);
  const kind = profile.video ? 'video' : 'audio';
  const packets = (probe.streams ?? []).filter((stream) => stream.codec_type === kind).reduce((sum, stream) => sum + Number(stream.nb_read_packets ?? 0), 0);
  if (!(packets > 0)) throw new Error(`${format}: no ${kind} packets in the file`);
}
