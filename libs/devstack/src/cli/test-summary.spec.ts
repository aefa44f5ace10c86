import { summaryLine } from './test-summary';

describe('summaryLine', () => {
  const results = { numPassedTests: 851, numFailedTests: 2, numRuntimeErrorTestSuites: 0 };

  it("counts jest's passed and failed tests", () => {
    expect(summaryLine(results)).toBe('851 passed, 2 failed');
  });

  it('counts a suite that could not run as one failure', () => {
    expect(summaryLine({ ...results, numRuntimeErrorTestSuites: 1 })).toBe('851 passed, 3 failed');
  });

  it('counts each non-jest check as one passed or failed', () => {
    expect(
      summaryLine(results, [
        { name: 'lint', passed: true },
        { name: 'format', passed: false },
      ]),
    ).toBe('852 passed, 3 failed');
  });

  it('never reads as clean when jest wrote no results', () => {
    expect(summaryLine(undefined, [{ name: 'lint', passed: true }])).toBe('1 passed, 1 failed');
  });
});
