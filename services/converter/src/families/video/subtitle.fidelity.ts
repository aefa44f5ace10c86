import { readFile } from 'node:fs/promises';
import { type ContentCheck, type Finding, Findings } from '../../matrix/fidelity/findings';
import { SUBTITLE_CUES, parseCues } from './subtitle-proof';

/** A cue may move this much (seconds): SCC counts 30 fps frames, MicroDVD and AQTitle 25, PJS tenths. */
export const CUE_TOLERANCE_S = 0.05;

/**
 * A subtitle output against the sample's cues, read from the output's own
 * text by this parser (ffmpeg wrote it): both lines in order, each starting
 * and ending when the sample says. An output without end times (LRC)
 * declares it and is held to the starts.
 */
export function compareCues(format: string, text: string, note?: string): Finding[] {
  const findings = new Findings();
  findings.expect('reader', true, `the ${format} text itself (cue parser in subtitle-proof.ts; ffmpeg wrote it)`);
  const cues = parseCues(format, text);
  const texts = cues.map((cue) => cue.text);
  const expected = SUBTITLE_CUES.map((cue) => cue.text);
  findings.expect('cues', JSON.stringify(texts) === JSON.stringify(expected), `${JSON.stringify(texts)}; the sample's: ${JSON.stringify(expected)}`);
  const off = (a: number | undefined, b: number) => a === undefined || Math.abs(a - b) > CUE_TOLERANCE_S;
  const when = (value: number | undefined) => (value === undefined ? 'none' : `${value.toFixed(3)} s`);
  const starts = SUBTITLE_CUES.map((cue, i) => ({ found: cues[i]?.start, wanted: cue.start }));
  findings.expect(
    'start times',
    starts.every(({ found, wanted }) => !off(found, wanted)),
    starts.map(({ found, wanted }) => `${when(found)} (sample ${wanted} s)`).join(', '),
  );
  if (note?.includes('no end times')) {
    findings.expect('end times', true, `none kept (declared: ${note})`);
  } else {
    const ends = SUBTITLE_CUES.map((cue, i) => ({ found: cues[i]?.end, wanted: cue.end }));
    findings.expect(
      'end times',
      ends.every(({ found, wanted }) => !off(found, wanted)),
      ends.map(({ found, wanted }) => `${when(found)} (sample ${wanted} s)`).join(', '),
    );
  }
  return findings.list;
}

/** The video family's check of its subtitle pairs. */
export function subtitleContentCheck(): ContentCheck {
  return async (pair, _source, outputPath) => {
    try {
      return compareCues(pair.outputFormat, await readFile(outputPath, 'utf8'), pair.note);
    } catch (error) {
      return [{ check: 'read', passed: false, detail: (error as Error).message.replace(/\s+/g, ' ').slice(0, 300) }];
    }
  };
}
