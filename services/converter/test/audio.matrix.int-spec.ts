import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AudioFamily } from '../src/families/audio/audio.family';
import { describeFamilyMatrix } from './family-matrix';

const exec = promisify(execFile);

describeFamilyMatrix('audio');

describe('audio family codec options', () => {
  it('encodes every audio_codec value each target lists', async () => {
    const family = new AudioFamily();
    const dir = await mkdtemp(join(tmpdir(), 'audio-codecs-'));
    try {
      const source = join(dir, 'source.wav');
      await exec('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=sample_rate=44100:duration=0.5', '-ac', '2', source]);
      const failures: string[] = [];
      const seen = new Set<string>();
      let checked = 0;
      for (const pair of family.pairs()) {
        if (seen.has(pair.outputFormat)) continue;
        seen.add(pair.outputFormat);
        const codecs = pair.options.find((option) => option.name === 'audio_codec')?.values.map((value) => value.value) ?? [];
        for (const codec of codecs) {
          const output = join(dir, `${pair.outputFormat}-${codec}.${pair.outputFormat}`);
          try {
            await family.convert({
              inputPath: source,
              outputPath: output,
              inputFormat: 'wav',
              outputFormat: pair.outputFormat,
              options: { audio_codec: codec },
              signal: AbortSignal.timeout(60_000),
              reportProgress: () => undefined,
            });
            const { stdout } = await exec('ffprobe', ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=codec_name', '-of', 'csv=p=0', output]);
            if (stdout.trim() !== codec) failures.push(`${pair.outputFormat} ${codec}: found ${stdout.trim()}`);
            checked += 1;
          } catch (error) {
            failures.push(`${pair.outputFormat} ${codec}: ${(error as Error).message}`);
          }
        }
      }
      expect(failures).toEqual([]);
      expect(checked).toBeGreaterThan(10);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
