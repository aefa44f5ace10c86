/**
 * Tracker modules ffmpeg reads through libopenmpt (Debian's ffmpeg is built
 * with it) and nothing here writes: ProTracker's MOD. They convert to every
 * audio target like any input ffmpeg reads; the proof writes the sample.
 */
export const TRACKER_INPUTS = ['mod'] as const;

/** ProTracker's period for A-2; libopenmpt plays a 32-byte cycle at it as a ~436 Hz tone (PAL clock). */
const PERIOD_A2 = 254;
const CYCLE = 32;
const ROWS = 64;

/**
 * A four-channel ProTracker module ("M.K."): one looped sine sample, played
 * once on channel 1 at full volume, and a pattern break on row 8 that ends the
 * song after about a second (8 rows at speed 6, 125 BPM).
 */
export function protrackerModule(): Buffer {
  const cycle = Buffer.from(Array.from({ length: CYCLE }, (_, i) => Math.round(100 * Math.sin((2 * Math.PI * i) / CYCLE)) & 0xff));
  const title = Buffer.alloc(20);
  title.write('transmute', 'latin1');
  const sample = (name: string, words: number, volume: number, loopWords: number) => {
    const header = Buffer.alloc(30);
    header.write(name, 'latin1');
    header.writeUInt16BE(words, 22);
    header.writeUInt8(0, 24); // finetune
    header.writeUInt8(volume, 25);
    header.writeUInt16BE(0, 26); // loop start
    header.writeUInt16BE(loopWords, 28);
    return header;
  };
  const samples = [sample('tone', CYCLE / 2, 64, CYCLE / 2), ...Array.from({ length: 30 }, () => sample('', 0, 0, 1))];
  const order = Buffer.alloc(130);
  order.writeUInt8(1, 0); // song length: one position
  order.writeUInt8(127, 1);
  const pattern = Buffer.alloc(ROWS * 4 * 4);
  // Row 0, channel 1: sample 1 at A-2, effect C (volume) 64.
  pattern.writeUInt8(((1 & 0xf0) | (PERIOD_A2 >> 8)) & 0xff, 0);
  pattern.writeUInt8(PERIOD_A2 & 0xff, 1);
  pattern.writeUInt8(((1 & 0x0f) << 4) | 0xc, 2);
  pattern.writeUInt8(64, 3);
  // Row 7, channel 2: effect D (pattern break), the song's end.
  pattern.writeUInt8(0x0d, 7 * 16 + 4 + 2);
  return Buffer.concat([title, ...samples, order, Buffer.from('M.K.', 'latin1'), pattern, cycle]);
}
