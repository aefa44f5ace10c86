import { Counter, Gauge, Histogram, register } from 'prom-client';

/** Why a supervised engine process was restarted (the `reason` label). */
export type RestartReason = 'crash' | 'hang' | 'max_conversions' | 'cancelled';

function metric<T>(name: string, make: () => T): T {
  // Tests create several supervisors (and jest reloads modules); one registration per process.
  return (register.getSingleMetric(name) as T | undefined) ?? make();
}

/** What every supervisor reports on the converter's `/metrics`, labelled by engine. The chart's alerts read these. */
export const engineMetrics = {
  queueDepth: metric(
    'transmute_engine_queue_depth',
    () => new Gauge({ name: 'transmute_engine_queue_depth', help: 'Conversions waiting for an engine process', labelNames: ['engine'] }),
  ),
  inFlight: metric('transmute_engine_in_flight', () => new Gauge({ name: 'transmute_engine_in_flight', help: 'Conversions running on an engine process', labelNames: ['engine'] })),
  processesUp: metric(
    'transmute_engine_processes_up',
    () => new Gauge({ name: 'transmute_engine_processes_up', help: 'Engine processes running and ready', labelNames: ['engine'] }),
  ),
  healthy: metric(
    'transmute_engine_healthy',
    () => new Gauge({ name: 'transmute_engine_healthy', help: '1 while the engine is below its failure threshold', labelNames: ['engine'] }),
  ),
  restarts: metric(
    'transmute_engine_restarts_total',
    () => new Counter({ name: 'transmute_engine_restarts_total', help: 'Engine process restarts, by reason', labelNames: ['engine', 'reason'] }),
  ),
  startFailures: metric(
    'transmute_engine_start_failures_total',
    () => new Counter({ name: 'transmute_engine_start_failures_total', help: 'Engine processes that failed to start', labelNames: ['engine'] }),
  ),
  rejected: metric(
    'transmute_engine_rejected_total',
    () => new Counter({ name: 'transmute_engine_rejected_total', help: 'Conversions turned away because the engine queue was full', labelNames: ['engine'] }),
  ),
};

/** Seconds one conversion took in the converter, by family and outcome (every family, supervised or not). */
export const conversionSeconds = metric(
  'transmute_conversion_seconds',
  () =>
    new Histogram({
      name: 'transmute_conversion_seconds',
      help: 'Time one conversion took, by family and outcome',
      labelNames: ['family', 'outcome'],
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
    }),
);
