import { DelayedReport } from './delayed-report';

describe('DelayedReport', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('is never made for work that ends within the delay', async () => {
    const make = jest.fn(() => Promise.resolve());
    const report = new DelayedReport(500, make);
    await report.dueNow();
    jest.advanceTimersByTime(499);
    await report.settle();
    jest.advanceTimersByTime(1_000);
    expect(make).not.toHaveBeenCalled();
  });

  it('is made once the delay passes, and settle waits until it is', async () => {
    let finish: () => void = () => undefined;
    const make = jest.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const report = new DelayedReport(500, make);
    jest.advanceTimersByTime(500);
    expect(make).toHaveBeenCalledTimes(1);
    let settled = false;
    const settling = report.settle().then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    finish();
    await settling;
    expect(settled).toBe(true);
  });

  it('drops a delayed report that failed: the end report supersedes it', async () => {
    const report = new DelayedReport(100, () => Promise.reject(new Error('NATS away')));
    jest.advanceTimersByTime(100);
    await expect(report.settle()).resolves.toBeUndefined();
  });

  it('with no delay, is made at once and a failure goes to the caller', async () => {
    const made = new DelayedReport(0, () => Promise.resolve());
    await expect(made.dueNow()).resolves.toBeUndefined();
    const failing = new DelayedReport(0, () => Promise.reject(new Error('NATS away')));
    await expect(failing.dueNow()).rejects.toThrow('NATS away');
  });
});
