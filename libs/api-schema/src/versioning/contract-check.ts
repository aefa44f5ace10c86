import type { Deprecation } from './deprecations';
import { describeTarget, isPastSunset } from './deprecations';

/** One line of the contract surface, taken apart. */
interface ParsedLine {
  line: string;
  /** `get /v1/formats`; '' for the Error schema's fields. */
  route: string;
  /** `response get /v1/x 200`, `request post /v1/x`, `error`; '' for a route line. */
  scope: string;
  /** The field's path in the body; '' for a route line. */
  path: string;
  /** `Component.path` the field is declared at. */
  origin: string;
}

const ROUTE = /^route (\S+) (\S+)$/;
const FIELD = /^((?:request (\S+) (\S+))|(?:response (\S+) (\S+) \d+)|error) (\S+): \S+(?: \(from (\S+)\))?$/;

export function parseLine(line: string): ParsedLine {
  const route = ROUTE.exec(line);
  if (route) return { line, route: `${route[1]} ${route[2]}`, scope: '', path: '', origin: '' };
  const field = FIELD.exec(line);
  if (!field) throw new Error(`not a contract surface line: ${JSON.stringify(line)}`);
  const method = field[2] ?? field[4];
  const path = field[3] ?? field[5];
  return { line, route: method ? `${method} ${path}` : '', scope: field[1]!, path: field[6]!, origin: field[7] ?? '' };
}

const below = (inner: string, outer: string): boolean => inner === outer || ['.', '[', '{'].some((separator) => inner.startsWith(`${outer}${separator}`));

function covers(entry: Deprecation, line: ParsedLine): boolean {
  if ('route' in entry.target) return line.route === entry.target.route;
  return line.origin !== '' && below(line.origin, `${entry.target.schema}.${entry.target.property}`);
}

export interface BaselineCheck {
  /** Lines of the baseline the document lost without a deprecation whose sunset has passed: breaking changes. */
  breaking: string[];
  /** Lines of the document the baseline does not hold yet: additions to record (`pnpm contract:baseline`). */
  unrecorded: string[];
}

/**
 * Compares the document's surface with the committed baseline. A line may
 * leave only when a register entry covers it (its route, its component
 * property, or a field above it in the same body) and that entry's sunset
 * has passed.
 */
export function checkAgainstBaseline(baseline: readonly string[], current: readonly string[], register: readonly Deprecation[], now: Date): BaselineCheck {
  const present = new Set(current);
  const gone = baseline.filter((line) => !present.has(line)).map(parseLine);
  const verdict = new Map<string, Deprecation | null>();
  for (const line of gone) verdict.set(line.line, register.find((entry) => covers(entry, line)) ?? null);
  // A field whose parent went under a deprecation goes with it, whatever component it is declared in.
  for (const line of gone) {
    if (verdict.get(line.line) || !line.path) continue;
    const parent = gone.find((other) => other.scope === line.scope && other.path !== line.path && verdict.get(other.line) && below(line.path, other.path));
    if (parent) verdict.set(line.line, verdict.get(parent.line)!);
  }
  const breaking = gone.flatMap((line) => {
    const entry = verdict.get(line.line);
    if (!entry) return [`${line.line}: removed without a deprecation (docs/decisions.md, "Versioning")`];
    if (!isPastSunset(entry, now)) return [`${line.line}: ${describeTarget(entry)} is deprecated, but its sunset (${entry.sunsetOn}) has not passed`];
    return [];
  });
  const recorded = new Set(baseline);
  return { breaking, unrecorded: current.filter((line) => !recorded.has(line)) };
}

/** The deprecation a response of this operation announces: the route's own, else one of a field it carries; the earliest sunset wins. */
export function deprecationOf(route: string, surface: readonly string[], register: readonly Deprecation[]): Deprecation | undefined {
  const lines = surface.filter((line) => line === `route ${route}` || line.startsWith(`response ${route} `)).map(parseLine);
  const applying = register.filter((entry) => lines.some((line) => covers(entry, line)));
  return applying.sort((a, b) => a.sunsetOn.localeCompare(b.sunsetOn))[0];
}
