import { Inject, Injectable } from '@nestjs/common';
import { z } from 'zod';
import { ServiceFailure } from '@transmute/contracts';
import { SERVICE_CONFIG } from '@transmute/service-kit';
import type { LimitsConfig } from './limits.config';

/** Quota is metered in decimal gigabytes: 1 GB = 10^9 bytes. */
export const BYTES_PER_GB = 1_000_000_000;

/** What an account may do; every figure comes from configuration (defaults below). */
export interface Plan {
  name: string;
  /** Bytes per calendar month (UTC); resets on the 1st. */
  monthlyBytes: number;
  /** Bytes on top of the monthly allowance, spent once it is used up; never resets. */
  additionalBytes: number;
  /** Conversions (convert tasks of created jobs) per UTC day. */
  dailyConversions: number;
  /** Most convert tasks one job may hold (spec: "plan allowance"); more gives 422. */
  convertAllowance: number;
  /** Keyed requests per fixed one-minute window, per API key (or per IP for anonymous use). */
  rateLimitPerMinute: number;
}

const planFigures = z
  .object({
    monthlyGb: z.number().nonnegative(),
    additionalGb: z.number().nonnegative(),
    dailyConversions: z.number().int().nonnegative(),
    convertAllowance: z.number().int().positive().max(100),
    rateLimitPerMinute: z.number().int().positive(),
  })
  .strict();
export type PlanFigures = z.infer<typeof planFigures>;

/**
 * The plans that ship. `free` has the spec's figures (1.00 GB monthly, 1.00 GB
 * additional, 5 daily conversions). `anonymous` is the website's per-IP
 * principal. `dev` is the development account's plan: generous enough that
 * test suites polling with the dev key never meet a limit.
 */
export const DEFAULT_PLAN_FIGURES: Readonly<Record<string, PlanFigures>> = {
  free: { monthlyGb: 1, additionalGb: 1, dailyConversions: 5, convertAllowance: 5, rateLimitPerMinute: 60 },
  pro: { monthlyGb: 100, additionalGb: 10, dailyConversions: 1000, convertAllowance: 100, rateLimitPerMinute: 60 },
  business: { monthlyGb: 1000, additionalGb: 100, dailyConversions: 10000, convertAllowance: 100, rateLimitPerMinute: 60 },
  anonymous: { monthlyGb: 0.1, additionalGb: 0, dailyConversions: 3, convertAllowance: 1, rateLimitPerMinute: 20 },
  dev: { monthlyGb: 10000, additionalGb: 0, dailyConversions: 1000000, convertAllowance: 100, rateLimitPerMinute: 100000 },
};

const PLAN_NAME = /^[a-z][a-z0-9-]{0,31}$/;

/** `TRANSMUTE_PLANS`: a JSON object of plan name -> figures; a named plan replaces the default of that name. */
export const plansOverride = () =>
  z
    .string()
    .optional()
    .transform((text, context) => {
      if (text === undefined) return {};
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        context.addIssue({ code: 'custom', message: 'is not JSON' });
        return z.NEVER;
      }
      const parsed = z.record(z.string().regex(PLAN_NAME, 'plan names are lowercase, e.g. "pro"'), planFigures).safeParse(value);
      if (!parsed.success) {
        context.addIssue({
          code: 'custom',
          message: parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; '),
        });
        return z.NEVER;
      }
      return parsed.data;
    });

export function toPlan(name: string, figures: PlanFigures): Plan {
  return {
    name,
    monthlyBytes: Math.round(figures.monthlyGb * BYTES_PER_GB),
    additionalBytes: Math.round(figures.additionalGb * BYTES_PER_GB),
    dailyConversions: figures.dailyConversions,
    convertAllowance: figures.convertAllowance,
    rateLimitPerMinute: figures.rateLimitPerMinute,
  };
}

/** The configured plans: the defaults, with the operator's plans replacing or adding to them. */
export class PlanCatalog {
  private readonly plans: ReadonlyMap<string, Plan>;

  constructor(overrides: Record<string, PlanFigures> = {}) {
    const figures = { ...DEFAULT_PLAN_FIGURES, ...overrides };
    this.plans = new Map(Object.entries(figures).map(([name, plan]) => [name, toPlan(name, plan)]));
  }

  list(): Plan[] {
    return [...this.plans.values()];
  }

  find(name: string): Plan | undefined {
    return this.plans.get(name);
  }

  /** A plan that must exist (named by configuration or stored on an account). */
  get(name: string): Plan {
    const plan = this.plans.get(name);
    if (!plan) throw new Error(`plan "${name}" is not configured; configured: ${[...this.plans.keys()].join(', ')}`);
    return plan;
  }
}

/**
 * The configured plans, and which of them new accounts, the anonymous
 * principal and the development account are on. Every named plan must exist:
 * a typo fails the start, not the first request.
 */
@Injectable()
export class Plans {
  private readonly catalog: PlanCatalog;

  constructor(@Inject(SERVICE_CONFIG) private readonly config: LimitsConfig) {
    this.catalog = new PlanCatalog(config.plans);
    this.catalog.get(config.defaultPlan);
    this.catalog.get(config.anonymousPlan);
    this.catalog.get(config.devAccountPlan);
  }

  list(): Plan[] {
    return this.catalog.list();
  }

  get default(): Plan {
    return this.catalog.get(this.config.defaultPlan);
  }

  get anonymous(): Plan {
    return this.catalog.get(this.config.anonymousPlan);
  }

  get devAccount(): Plan {
    return this.catalog.get(this.config.devAccountPlan);
  }

  /** The plan of an account on `name`; one the operator removed falls back to the default. */
  of(name: string): Plan {
    return this.catalog.find(name) ?? this.default;
  }

  /** A plan an account may be put on; 422 naming the configured ones otherwise. */
  known(name: string): Plan {
    const plan = this.catalog.find(name);
    if (!plan)
      throw ServiceFailure.validation(
        `unknown plan "${name}"; plans: ${this.list()
          .map((candidate) => candidate.name)
          .join(', ')}`,
      );
    return plan;
  }
}

/** "1.00 GB" as the usage counters display it. */
export function formatGb(bytes: number): string {
  return `${(bytes / BYTES_PER_GB).toFixed(2)} GB`;
}
