import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runEngine } from '../../engine/run-engine';

/** The two cues every subtitle sample holds: what each output must still say, and when. */
export const SUBTITLE_CUES = [
  { start: 1, end: 2.5, text: 'Hello Transmute' },
  { start: 3, end: 4, text: 'Second line here' },
] as const;

const SRT = '1\n00:00:01,000 --> 00:00:02,500\nHello Transmute\n\n2\n00:00:03,000 --> 00:00:04,000\nSecond line here\n';
/** The read-only formats, written by hand with the same cues (AQTitle counts 25 fps frames, PJS tenths of a second). */
const HAND_WRITTEN: Record<string, string> = {
  smi: '<SAMI>\n<HEAD><TITLE>Sample</TITLE></HEAD>\n<BODY>\n<SYNC Start=1000><P>Hello Transmute\n<SYNC Start=2500><P>&nbsp;\n<SYNC Start=3000><P>Second line here\n<SYNC Start=4000><P>&nbsp;\n</BODY>\n</SAMI>\n',
  aqt: '-->> 000025\nHello Transmute\n\n-->> 000062\n\n-->> 000075\nSecond line here\n\n-->> 000100\n\n',
  pjs: '10,25,"Hello Transmute"\n30,40,"Second line here"\n',
};
HAND_WRITTEN['sami'] = HAND_WRITTEN['smi']!;
// SubStation Alpha v4 at ffmpeg's default font size (another size comes out as <font size> tags), JACOsub in
// hundredths, MicroDVD in 25 fps frames (the first cue declares the rate), RealText in a timed window.
HAND_WRITTEN['ssa'] = [
  '[Script Info]',
  'ScriptType: v4.00',
  '',
  '[V4 Styles]',
  'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, TertiaryColour, BackColour, Bold, Italic, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, AlphaLevel, Encoding',
  'Style: Default,Arial,16,16777215,65535,65535,0,0,0,1,2,0,2,10,10,10,0,0',
  '',
  '[Events]',
  'Format: Marked, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
  'Dialogue: Marked=0,0:00:01.00,0:00:02.50,Default,,0000,0000,0000,,Hello Transmute',
  'Dialogue: Marked=0,0:00:03.00,0:00:04.00,Default,,0000,0000,0000,,Second line here',
  '',
].join('\n');
HAND_WRITTEN['jss'] = '#TIMERES 100\n0:00:01.00 0:00:02.50 D Hello Transmute\n0:00:03.00 0:00:04.00 D Second line here\n';
HAND_WRITTEN['sub'] = '{1}{1}25.000\n{25}{62}Hello Transmute\n{75}{100}Second line here\n';
HAND_WRITTEN['rt'] =
  '<window type="generic" duration="00:00:05.00"><time begin="00:00:01.00" end="00:00:02.50"/>Hello Transmute\n' +
  '<time begin="00:00:03.00" end="00:00:04.00"/><clear/>Second line here\n</window>\n';
HAND_WRITTEN['scc'] = sccSample();

/**
 * Scenarist closed captions: CEA-608 byte pairs with odd parity, in
 * pop-on mode (load, end-of-caption shows it at the line's time code, erase
 * clears it), at 30 frames a second.
 */
function sccSample(): string {
  const parity = (byte: number) => (byte.toString(2).split('1').length % 2 === 0 ? byte : byte | 0x80);
  const hex = (byte: number) => byte.toString(16).padStart(2, '0');
  const words = (text: string) => {
    const bytes = [...text].map((char) => parity(char.charCodeAt(0)));
    if (bytes.length % 2) bytes.push(0x80);
    return Array.from({ length: bytes.length / 2 }, (_, i) => hex(bytes[i * 2]!) + hex(bytes[i * 2 + 1]!));
  };
  // Resume caption loading, erase the hidden memory, row 15 indent 0, the text, end of caption (each sent twice).
  const caption = (timecode: string, text: string) => `${timecode}\t${['9420', '9420', '94ae', '94ae', '9440', '9440', ...words(text), '942f', '942f'].join(' ')}`;
  const erase = (timecode: string) => `${timecode}\t942c 942c`;
  return ['Scenarist_SCC V1.0', caption('00:00:01:00', 'Hello Transmute'), erase('00:00:02:15'), caption('00:00:03:00', 'Second line here'), erase('00:00:04:00'), ''].join('\n\n');
}
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
 * (which wrote it): start time, end time where the format has one, and text
 * of each, in file order. Styling (HTML-like tags, ASS override blocks) is
 * not text: closed captions come out in a monospace face at their screen position.
 */
export function parseCues(format: string, text: string): Cue[] {
  const cues: Cue[] = [];
  const time = '(?:(\\d+):)?(\\d\\d):(\\d\\d[.,]\\d+)';
  if (format === 'srt' || format === 'vtt') {
    const cue = new RegExp(`${time}\\s+-->\\s+${time}[^\\n]*\\n([\\s\\S]*?)(?:\\n\\s*\\n|\\s*$)`, 'g');
    for (const match of text.matchAll(cue)) cues.push({ start: seconds(match[1], match[2]!, match[3]!), end: seconds(match[4], match[5]!, match[6]!), text: match[7]!.trim() });
  } else if (format === 'ass') {
    const dialogue = /^Dialogue:\s*[^,]*,(\d+):(\d\d):(\d\d\.\d+),(\d+):(\d\d):(\d\d\.\d+),(?:[^,]*,){6}(.*)$/gm;
    for (const match of text.matchAll(dialogue))
      cues.push({ start: seconds(match[1], match[2]!, match[3]!), end: seconds(match[4], match[5]!, match[6]!), text: match[7]!.trim() });
  } else if (format === 'lrc') {
    const line = /^\[(\d+):(\d\d\.\d+)\](.*)$/gm;
    for (const match of text.matchAll(line)) if (match[3]!.trim()) cues.push({ start: seconds(undefined, match[1]!, match[2]!), text: match[3]!.trim() });
  } else {
    throw new Error(`no cue parser for ${format}`);
  }
  return cues.map((cue) => ({ ...cue, text: cue.text.replace(/<[^>]*>|\{\\[^}]*\}/g, '').trim() }));
}

export interface Cue {
  start: number;
  /** Absent where the format keeps none (LRC). */
  end?: number;
  text: string;
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
