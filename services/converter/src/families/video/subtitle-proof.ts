import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runEngine } from '../../engine/run-engine';

/** The two cues every subtitle sample holds: what each output must still say, and when. */
export const SUBTITLE_CUES = [
  { start: 1, text: 'Hello Transmute' },
  { start: 3, text: 'Second line here' },
] as const;

const SRT = '1\n00:00:01,000 --> 00:00:02,500\nHello Transmute\n\n2\n00:00:03,000 --> 00:00:04,000\nSecond line here\n';
/** The read-only formats, written by hand with the same cues (AQTitle counts 25 fps frames, PJS tenths of a second). */
const HAND_WRITTEN: Record<string, string> = {
  smi: '<SAMI>\n<HEAD><TITLE>Sample</TITLE></HEAD>\n<BODY>\n<SYNC Start=1000><P>Hello Transmute\n<SYNC Start=2500><P>&nbsp;\n<SYNC Start=3000><P>Second line here\n<SYNC Start=4000><P>&nbsp;\n</BODY>\n</SAMI>\n',
  aqt: '-->> 000025\nHello Transmute\n\n-->> 000062\n\n-->> 000075\nSecond line here\n\n-->> 000100\n\n',
  pjs: '10,25,"Hello Transmute"\n30,40,"Second line here"\n',
};
HAND_WRITTEN['sami'] = HAND_WRITTEN['smi']!;
const FFMPEG_SAMPLES: Record<string, string> = { vtt: 'webvtt', ass: 'ass', lrc: 'lrc' };

export async function writeSubtitleSample(format: string, dir: string, signal: AbortSignal): Promise<string> {
  const path = join(dir, `sample.${format}`);
  const srt = join(dir, 'cues.srt');
  await writeFile(srt, SRT);
  if (format === 'srt') return srt;
  if (HAND_WRITTEN[format]) {
    await writeFile(path, HAND_WRITTEN[format]);
    return path;
  }
  const muxer = FFMPEG_SAMPLES[format];
  if (!muxer) throw new Error(`no subtitle sample recipe for ${format}`);
  await runEngine({ command: 'ffmpeg', args: ['-nostdin', '-loglevel', 'error', '-y', '-i', srt, '-f', muxer, path], timeoutMs: 60_000, signal });
  return path;
}

const seconds = (h: string | undefined, m: string, s: string) => Number(h ?? 0) * 3600 + Number(m) * 60 + Number(s.replace(',', '.'));

/**
 * The cues of a subtitle file, read by this parser rather than by ffmpeg
 * (which wrote it): start time and text of each, in file order.
 */
export function parseCues(format: string, text: string): { start: number; text: string }[] {
  const cues: { start: number; text: string }[] = [];
  if (format === 'srt' || format === 'vtt') {
    const cue = /(?:(\d+):)?(\d\d):(\d\d[.,]\d+)\s+-->\s+[^\n]+\n([\s\S]*?)(?:\n\s*\n|\s*$)/g;
    for (const match of text.matchAll(cue)) cues.push({ start: seconds(match[1], match[2]!, match[3]!), text: match[4]!.trim() });
  } else if (format === 'ass') {
    const dialogue = /^Dialogue:\s*[^,]*,(\d+):(\d\d):(\d\d\.\d+),[^,]*,(?:[^,]*,){6}(.*)$/gm;
    for (const match of text.matchAll(dialogue)) cues.push({ start: seconds(match[1], match[2]!, match[3]!), text: match[4]!.trim() });
  } else if (format === 'lrc') {
    const line = /^\[(\d+):(\d\d\.\d+)\](.*)$/gm;
    for (const match of text.matchAll(line)) if (match[3]!.trim()) cues.push({ start: seconds(undefined, match[1]!, match[2]!), text: match[3]!.trim() });
  } else {
    throw new Error(`no cue parser for ${format}`);
  }
  return cues;
}

/** Throws unless the file holds the sample's cues, in order, each within 50 ms of its time. */
export async function verifySubtitleOutput(format: string, path: string): Promise<void> {
  const cues = parseCues(format, await readFile(path, 'utf8'));
  const texts = cues.map((cue) => cue.text);
  if (JSON.stringify(texts) !== JSON.stringify(SUBTITLE_CUES.map((cue) => cue.text))) throw new Error(`${format}: cues ${JSON.stringify(texts)}, expected the sample's two`);
  cues.forEach((cue, i) => {
    if (Math.abs(cue.start - SUBTITLE_CUES[i]!.start) > 0.05) throw new Error(`${format}: cue ${i + 1} starts at ${cue.start} s, not ${SUBTITLE_CUES[i]!.start} s`);
  });
}
