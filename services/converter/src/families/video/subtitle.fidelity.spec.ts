import { LRC_LOSS } from './subtitles';
import { compareCues } from './subtitle.fidelity';

/** The subtitle content check must fail a lost cue, a changed line and a moved time, and hold LRC to its starts. */
describe('subtitle content check', () => {
  const failed = (findings: { check: string; passed: boolean }[]) => findings.filter((finding) => !finding.passed).map((finding) => finding.check);
  const srt = (first: string, start = '00:00:01,000', end = '00:00:04,000') => `1\n${start} --> 00:00:02,500\n${first}\n\n2\n00:00:03,000 --> ${end}\nSecond line here\n`;

  it('passes the sample written as SRT, VTT and ASS', () => {
    expect(failed(compareCues('srt', srt('Hello Transmute')))).toEqual([]);
    expect(failed(compareCues('vtt', `WEBVTT\n\n${srt('<i>Hello Transmute</i>').replace(/,/g, '.')}`))).toEqual([]);
    const dialogue = (start: string, end: string, text: string) => `Dialogue: 0,${start},${end},Default,,0,0,0,,${text}`;
    expect(failed(compareCues('ass', [dialogue('0:00:01.00', '0:00:02.50', 'Hello Transmute'), dialogue('0:00:03.00', '0:00:04.00', 'Second line here')].join('\n')))).toEqual([]);
  });

  it('fails a changed line, a lost cue and moved times', () => {
    expect(failed(compareCues('srt', srt('Hello Transmoot')))).toEqual(['cues']);
    expect(failed(compareCues('srt', '1\n00:00:01,000 --> 00:00:02,500\nHello Transmute\n'))).toEqual(['cues', 'start times', 'end times']);
    expect(failed(compareCues('srt', srt('Hello Transmute', '00:00:01,200')))).toEqual(['start times']);
    expect(failed(compareCues('srt', srt('Hello Transmute', '00:00:01,000', '00:00:05,000')))).toEqual(['end times']);
  });

  it('holds LRC, which declares no end times, to its starts', () => {
    const lrc = (second: string) => `[00:01.00]Hello Transmute\n[00:02.50]\n[${second}]Second line here\n`;
    expect(failed(compareCues('lrc', lrc('00:03.00'), LRC_LOSS))).toEqual([]);
    expect(failed(compareCues('lrc', lrc('00:03.50'), LRC_LOSS))).toEqual(['start times']);
    expect(failed(compareCues('lrc', lrc('00:03.00')))).toEqual(['end times']);
  });
});
