/**
 * The /v1 deprecation register (docs/decisions.md, "Versioning"): every route
 * or field ever deprecated, kept after its removal as the record of why it
 * went. The OpenAPI document marks what is listed here `deprecated`, the
 * gateway announces it on every response that carries it (Deprecation,
 * RFC 9745; Sunset, RFC 8594), and the contract test lets a listed surface
 * leave the document only once its sunset has passed.
 */
export interface Deprecation {
  /** A whole route (`get /v1/...`, as the document writes its path), or one property of a component schema. */
  target: { route: string } | { schema: string; property: string };
  /** When it was announced: from this day responses carry `Deprecation`. ISO date (UTC). */
  deprecatedOn: string;
  /** The earliest day it may be removed; at least MIN_DEPRECATION_DAYS after `deprecatedOn`. ISO date (UTC). */
  sunsetOn: string;
  /** What to use instead, for people reading the document. */
  replacement: string;
}

/** How long a deprecated route or field keeps working before it may go. */
export const MIN_DEPRECATION_DAYS = 180;

/** Nothing in /v1 is deprecated yet. An entry is added here, never removed. */
export const DEPRECATIONS: readonly Deprecation[] = [];

const DAY_MS = 86_400_000;
const dayOf = (iso: string): number => Date.parse(`${iso}T00:00:00Z`);

/** Problems with the register itself: dates that do not parse, or a sunset sooner than the policy allows. */
export function registerProblems(register: readonly Deprecation[]): string[] {
  return register.flatMap((entry) => {
    const name = describeTarget(entry);
    const from = dayOf(entry.deprecatedOn);
    const until = dayOf(entry.sunsetOn);
    if (Number.isNaN(from) || Number.isNaN(until)) return [`${name}: deprecatedOn and sunsetOn must be YYYY-MM-DD`];
    if (until - from < MIN_DEPRECATION_DAYS * DAY_MS) return [`${name}: sunset ${entry.sunsetOn} is sooner than ${MIN_DEPRECATION_DAYS} days after ${entry.deprecatedOn}`];
    if (!entry.replacement) return [`${name}: say what replaces it`];
    return [];
  });
}

export function describeTarget(entry: Pick<Deprecation, 'target'>): string {
  return 'route' in entry.target ? entry.target.route : `${entry.target.schema}.${entry.target.property}`;
}

/** Whether the sunset has passed on `now`: only then may the surface leave the document. */
export function isPastSunset(entry: Deprecation, now: Date): boolean {
  return now.getTime() >= dayOf(entry.sunsetOn);
}

/** `Deprecation: @<unix seconds>` (RFC 9745) and `Sunset: <HTTP-date>` (RFC 8594) for one entry. */
export function deprecationHeaders(entry: Deprecation): Record<string, string> {
  return {
    Deprecation: `@${Math.floor(dayOf(entry.deprecatedOn) / 1000)}`,
    Sunset: new Date(dayOf(entry.sunsetOn)).toUTCString(),
  };
}
