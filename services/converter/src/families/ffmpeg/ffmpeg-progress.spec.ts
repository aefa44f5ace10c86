import { progressTracker } from './ffmpeg-progress';

describe('progressTracker', () => {
  it('turns out_time_us into a rising percentage and ends at 100', () => {
    const seen: number[] = [];
    const track = progressTracker(10, (percent) => seen.push(percent));
    for (const line of ['frame=1', 'out_time_us=1000000', 'out_time_us=1000000', 'out_time_ms=5500000', 'out_time_us=12000000', 'progress=end']) track(line);
    expect(seen).toEqual([10, 55, 99, 100]);
  });

  it('reports nothing when the length is unknown', () => {
    const seen: number[] = [];
    const track = progressTracker(undefined, (percent) => seen.push(percent));
    track('out_time_us=1000000');
    track('progress=end');
    expect(seen).toEqual([]);
  });
});
