import { ConverterProcess } from './converter-process';

/**
 * The built document converter with its supervised LibreOffice: the
 * supervisor's metrics and the per-family conversion time appear on
 * `/metrics` (what the chart's alerts read), and `/readyz` is up.
 */
describe('converter engine metrics', () => {
  const converter = new ConverterProcess('document', { TRANSMUTE_OFFICE_POOL_SIZE: '1' });
  beforeAll(() => converter.start());
  afterAll(() => converter.stop());

  it('exports queue depth, in flight, processes, health, restarts and conversion seconds by family', async () => {
    await converter.until(async () => (await fetch(`${converter.baseUrl}/readyz`).catch(() => undefined))?.status === 200, 'readiness');
    await converter.submit('to-odt', 'a short note\n', 'txt', 'odt');
    const outcome = await converter.until(() => converter.ended('to-odt'), 'the conversion');
    expect(outcome.outcome.case).toBe('succeeded');

    const metrics = await (await fetch(`${converter.baseUrl}/metrics`)).text();
    const engine = { engine: 'libreoffice', service: 'converter-document' };
    expect(sample(metrics, 'transmute_engine_queue_depth', engine)).toBe(0);
    expect(sample(metrics, 'transmute_engine_in_flight', engine)).toBe(0);
    expect(sample(metrics, 'transmute_engine_processes_up', engine)).toBe(1);
    expect(sample(metrics, 'transmute_engine_healthy', engine)).toBe(1);
    expect(metrics).toContain('# TYPE transmute_engine_restarts_total counter');
    expect(sample(metrics, 'transmute_conversion_seconds_count', { family: 'document', outcome: 'succeeded', service: 'converter-document' })).toBe(1);
  });
});

/** The value of one sample of the Prometheus text format, whatever the order of its labels. */
function sample(metrics: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of metrics.split('\n')) {
    const match = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...match[2]!.matchAll(/([a-z_]+)="([^"]*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (Object.keys(found).length === Object.keys(labels).length && Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}
