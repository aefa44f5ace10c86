import { ProgressThrottle } from './progress-reporter';

describe('ProgressThrottle', () => {
  it('forwards rising whole percentages at most once per interval, and always the final 100', async () => {
    let now = 0;
    const sent: number[] = [];
    const throttle = new ProgressThrottle(
      async (percent) => void sent.push(percent),
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

  it('swallows a failing sink', () => {
    const throttle = new ProgressThrottle(() => Promise.reject(new Error('nats away')));
    expect(() => throttle.report(10)).not.toThrow();
  });
});
