/**
 * What a content check found about one output: each finding names what was
 * compared and how it came out, so a report can show why a pair passed as
 * well as why it failed.
 */
export interface Finding {
  /** What was checked, e.g. "dimensions", "words in order", "duration". */
  check: string;
  passed: boolean;
  /** The measured values, e.g. "source 64x48, output 64x48". */
  detail: string;
}

/** Collects findings; `expect` records a comparison and never throws, so one run reports every check. */
export class Findings {
  readonly list: Finding[] = [];

  expect(check: string, passed: boolean, detail: string): boolean {
    this.list.push({ check, passed, detail });
    return passed;
  }

  /** A check that could not be made counts as failed: a missing reader must never pass silently. */
  fail(check: string, detail: string): false {
    this.list.push({ check, passed: false, detail });
    return false;
  }

  /** Runs `measure` and records its failure as a failed check instead of aborting the others. */
  async attempt(check: string, measure: () => Promise<void>): Promise<void> {
    try {
      await measure();
    } catch (error) {
      this.fail(check, error instanceof Error ? error.message.replace(/\s+/g, ' ').slice(0, 300) : String(error));
    }
  }

  get passed(): boolean {
    return this.list.length > 0 && this.list.every((finding) => finding.passed);
  }

  /** The failed findings as one line, for a report cell or an error message. */
  summary(): string {
    const failed = this.list.filter((finding) => !finding.passed);
    if (this.list.length === 0) return 'no content check ran';
    return failed.map((finding) => `${finding.check}: ${finding.detail}`).join('; ');
  }
}

/** The pair a content check is about, with the loss its family declares for it, if any. */
export interface CheckedPair {
  inputFormat: string;
  outputFormat: string;
  /** What the family says this pair loses ("only the first page"); the check holds the output to the rest. */
  note?: string;
}

/** Compares one converted output with its source: the family's content check. */
export type ContentCheck = (pair: CheckedPair, source: string, output: string, signal: AbortSignal) => Promise<Finding[]>;
