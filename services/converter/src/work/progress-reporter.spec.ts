import { ProgressThrottle } from './progress-reporter';

describe('ProgressThrottle', () => {
  it('forwards rising whole percentages at most once per interval, and always the final 100', async () => {
    let now = 0;
    const sent: number[] = [];
    const throttle = new ProgressThrottle(
      async (percent) => void sent.push(percent),
      0,
      () => now,
      1_000,
    );
    throttle.report(0.5); // 0 at t=0
    throttle.report(3); // too soon
    now = 1_200;
    throttle.report(2.9); // 2, rising, interval passed
    throttle.report(1); // falling: dropped
    now = 1_500;
    throttle.report(50); // too soon
    now = 2_300;
    throttle.report(Number.NaN);
    throttle.report(250); // clamped to 100
    throttle.report(100); // not rising
    expect(sent).toEqual([0, 2, 100]);
  });

  it('says nothing while the conversion is younger than the quiet period, its 100 included', () => {
    let now = 5_000;
    const sent: number[] = [];
    const quick = new ProgressThrottle(
      async (percent) => void sent.push(percent),
      500,
      () => now,
    );
    quick.report(1);
    now = 5_045;
    quick.report(100);
    expect(sent).toEqual([]);

    now = 0;
    const long = new ProgressThrottle(
      async (percent) => void sent.push(percent),
      500,
      () => now,
    );
    long.report(1); // at the start: withheld, and not counted as sent
    now = 400;
    long.report(1);
    now = 600;
    long.report(1); // the first figure once the quiet period is over
    now = 900;
    long.report(40); // within the interval of that report
    now = 1_700;
    long.report(40);
    now = 1_800;
    long.report(100);
    expect(sent).toEqual([1, 40, 100]);
  });

  it('swallows a failing sink', () => {
    const throttle = new ProgressThrottle(() => Promise.reject(new Error('nats away')), 0);
    expect(() => throttle.report(10)).not.toThrow();
  });
});
