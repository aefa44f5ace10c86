/**
 * Turns ffmpeg's `-progress pipe:1` lines (`out_time_us=1234567`, ...) into
 * a percentage of the expected output length. Without a known length (raw
 * streams carry none) there is no percentage to give.
 */
export function progressTracker(expectedSec: number | undefined, report: (percent: number) => void): (line: string) => void {
  let last = -1;
  return (line) => {
    if (!expectedSec || expectedSec <= 0) return;
    const match = /^out_time_(?:us|ms)=(\d+)$/.exec(line.trim());
    // ffmpeg prints out_time_ms in microseconds too (a long-standing misnomer).
    if (!match) {
      if (line.trim() === 'progress=end' && last < 100) report((last = 100));
      return;
    }
    const percent = Math.max(0, Math.min(99, Math.floor((Number(match[1]) / 1e6 / expectedSec) * 100)));
    if (percent > last) report((last = percent));
  };
}
