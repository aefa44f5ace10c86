import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { VideoFamily } from '../src/families/video/video.family';
import { describeFamilyMatrix } from './family-matrix';

const exec = promisify(execFile);

describeFamilyMatrix('video');

/** Codec option values whose stream ffprobe names differently. */
const PROBED_AS: Record<string, string> = { divx: 'mpeg4', xvid: 'mpeg4', dnxhr: 'dnxhd' };

describe('video family codec options', () => {
  it('encodes every video_codec and audio_codec value each target lists', async () => {
    const family = new VideoFamily();
    const dir = await mkdtemp(join(tmpdir(), 'video-codecs-'));
    try {
      const source = join(dir, 'source.mkv');
      await exec('ffmpeg', [
        '-nostdin',
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=160x120:rate=25:duration=0.5',
        '-f',
        'lavfi',
        '-i',
        'sine=sample_rate=48000:duration=0.5',
        '-c:v',
        'ffv1',
        '-c:a',
        'flac',
        source,
      ]);
      const failures: string[] = [];
      let checked = 0;
      const seen = new Set<string>();
      for (const pair of family.pairs()) {
        if (seen.has(pair.outputFormat)) continue;
        seen.add(pair.outputFormat);
        const values = (name: string) => pair.options.find((option) => option.name === name)?.values.map((value) => value.value) ?? [];
        const video = values('video_codec');
        const audio = values('audio_codec');
        for (let i = 0; i < Math.max(video.length, audio.length); i += 1) {
          const options = { ...(video[i] ? { video_codec: video[i] } : {}), ...(audio[i] ? { audio_codec: audio[i] } : {}) };
          const output = join(dir, `${pair.outputFormat}-${i}.${pair.outputFormat}`);
          try {
            await family.convert({
              inputPath: source,
              outputPath: output,
              inputFormat: 'mkv',
              outputFormat: pair.outputFormat,
              options,
              signal: AbortSignal.timeout(120_000),
              reportProgress: () => undefined,
            });
            const { stdout } = await exec('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name', '-of', 'csv=p=0', output]);
            const codecs = stdout
              .split('\n')
              .filter(Boolean)
              .map((line) => line.split(',')[0]);
            for (const wanted of [video[i], audio[i]]) {
              if (wanted && !codecs.includes(PROBED_AS[wanted] ?? wanted)) failures.push(`${pair.outputFormat} ${wanted}: found ${codecs.join('+')}`);
            }
            checked += 1;
          } catch (error) {
            failures.push(`${pair.outputFormat} ${JSON.stringify(options)}: ${(error as Error).message}`);
          }
        }
      }
      expect(failures).toEqual([]);
      expect(checked).toBeGreaterThan(20);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
