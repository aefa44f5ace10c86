import type { ConversionRoute } from './catalogue.client';

export type Pair = Pick<ConversionRoute, 'inputFormat' | 'outputFormat'>;

/**
 * The catalogue's answers for a few seconds, so a stream of jobs for the
 * same pairs does not ask it once per job. Only pairs some family owns are
 * kept: a pair no family converts is asked again every time, so a family
 * that has just started counts at once. A family that stops is forgotten
 * `ttlMs` later; the catalogue itself keeps a silent family for a minute.
 */
export class RouteCache {
  private readonly entries = new Map<string, { route: ConversionRoute; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  /** The routes of `pairs`, in order, asking `load` only for those not held. */
  async routes(pairs: readonly Pair[], load: (missing: Pair[]) => Promise<ConversionRoute[]>, now = Date.now()): Promise<ConversionRoute[]> {
    const held = pairs.map((pair) => this.held(pair, now));
    const missing = pairs.filter((_pair, index) => held[index] === undefined);
    if (missing.length === 0) return held as ConversionRoute[];
    const loaded = await load(missing);
    missing.forEach((pair, index) => {
      const route = loaded[index];
      if (route?.family) this.keep(pair, route, now);
    });
    let next = 0;
    return held.map((route) => route ?? loaded[next++]!);
  }

  private held(pair: Pair, now: number): ConversionRoute | undefined {
    const entry = this.entries.get(keyOf(pair));
    return entry && entry.until > now ? entry.route : undefined;
  }

  private keep(pair: Pair, route: ConversionRoute, now: number): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(keyOf(pair), { route, until: now + this.ttlMs });
  }
}

const keyOf = (pair: Pair) => `${pair.inputFormat}>${pair.outputFormat}`;
