import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifySubtitleOutput, writeSubtitleSample } from './subtitle-proof';
import { SUBTITLE_INPUTS, subtitlePairs } from './subtitles';
import { VideoFamily } from './video.family';

/**
 * Every subtitle pair with the real ffmpeg; each result read by the proof's
 * own cue parser (not ffmpeg, which wrote it): the two cues, in order, at
 * their times.
 */
describe('video family: subtitles', () => {
  const family = new VideoFamily();
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'subtitles-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each(subtitlePairs().map(({ inputFormat, outputFormat }) => [inputFormat, outputFormat]))(
    '%s → %s keeps every cue, its text and its start',
    async (inputFormat, outputFormat) => {
      const sampleDir = await mkdtemp(join(dir, `${inputFormat}-${outputFormat}-`));
      const inputPath = await writeSubtitleSample(inputFormat, sampleDir, AbortSignal.timeout(60_000));
      const outputPath = join(sampleDir, `out.${outputFormat}`);
      await family.convert({
        inputPath,
        outputPath,
        inputFormat: inputFormat,
        outputFormat: outputFormat,
        options: {},
        signal: AbortSignal.timeout(60_000),
        reportProgress: () => undefined,
      });
      await verifySubtitleOutput(outputFormat, outputPath);
    },
  );

  it('lists every subtitle input towards srt, vtt, ass and lrc', () => {
    const inputs = new Set(
      family
        .pairs()
        .filter((pair) => pair.outputFormat === 'vtt' && pair.inputFormat in SUBTITLE_INPUTS)
        .map((pair) => pair.inputFormat),
    );
    expect([...inputs].sort()).toEqual(['aqt', 'ass', 'jss', 'lrc', 'pjs', 'rt', 'sami', 'scc', 'smi', 'srt', 'ssa', 'sub']);
  });

  it('refuses a file that is not the subtitle format its name says', async () => {
    const inputPath = join(dir, 'fake.ass');
    await writeFile(inputPath, '\u0000\u0001 binary garbage');
    await expect(
      family.convert({
        inputPath,
        outputPath: join(dir, 'fake.vtt'),
        inputFormat: 'ass',
        outputFormat: 'vtt',
        options: {},
        signal: AbortSignal.timeout(60_000),
        reportProgress: () => undefined,
      }),
    ).rejects.toThrow(/not a readable ass subtitle file: .*no cue could be read/);
  });
});
