/** The fields of jest's `--json` results the summary reads. */
export interface JestResults {
  numPassedTests: number;
  numFailedTests: number;
  /** Suites that failed to run at all (a syntax error, a throw at load): no test inside them is counted by jest. */
  numRuntimeErrorTestSuites: number;
}

export interface CheckOutcome {
  name: string;
  passed: boolean;
}

/**
 * `N passed, N failed`: jest's passed and failed tests, a suite that could not
 * run counting as one failure, each non-jest check as one of either. Without
 * results (jest died before writing them) the run counts one failure, so a
 * broken run never reads as a clean one.
 */
export function summaryLine(results: JestResults | undefined, checks: CheckOutcome[] = []): string {
  const passedChecks = checks.filter((check) => check.passed).length;
  const failedChecks = checks.length - passedChecks;
  if (!results) return `${passedChecks} passed, ${failedChecks + 1} failed`;
  const passed = results.numPassedTests + passedChecks;
  const failed = results.numFailedTests + results.numRuntimeErrorTestSuites + failedChecks;
  return `${passed} passed, ${failed} failed`;
}
