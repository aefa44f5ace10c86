import { Gauge, register } from 'prom-client';
import type { ConverterFamily } from '../families/family';

const familyReady =
  (register.getSingleMetric('transmute_family_ready') as Gauge<string> | undefined) ??
  new Gauge({ name: 'transmute_family_ready', help: '1 while the family can convert every pair it lists (its long-lived engines are up)', labelNames: ['family'] });

/** `transmute_family_ready{family}`, read from the family when /metrics is scraped, so it never drifts from `/readyz`. */
export function watchFamilyReadiness(family: ConverterFamily): void {
  (familyReady as unknown as { collect?: () => void }).collect = () => {
    familyReady.reset();
    familyReady.set({ family: family.name }, (family.readiness?.().ready ?? true) ? 1 : 0);
  };
}
