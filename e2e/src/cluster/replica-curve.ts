import { writeFile } from 'node:fs/promises';
import { View, parse } from 'vega';
import { compile } from 'vega-lite';
import { kubectl } from './cluster-kit';

/**
 * The size of one converter pool over time, sampled from its Deployment while
 * a test loads it, with its consumer's backlog (what the autoscaler reads):
 * printed as a table and drawn as an SVG (Vega-Lite) for the docs.
 */

export interface ReplicaSample {
  /** Seconds since the recording started. */
  at: number;
  /** Pods the autoscaler asked for (spec.replicas). */
  desired: number;
  /** Pods ready to take work. */
  ready: number;
  /** Tasks queued for the pool or in its hands (the consumer's pending and unacknowledged messages). */
  waiting: number;
}

export class ReplicaRecorder {
  readonly samples: ReplicaSample[] = [];
  private readonly startedAt = Date.now();
  private timer?: NodeJS.Timeout;
  private sampling?: Promise<void>;

  constructor(
    private readonly namespace: string,
    private readonly deployment: string,
    private readonly backlog: () => Promise<number>,
  ) {}

  start(intervalMs = 2000): void {
    const tick = () => {
      this.sampling = this.sample().finally(() => {
        if (this.timer) this.timer = setTimeout(tick, intervalMs);
      });
    };
    this.timer = setTimeout(tick, 0);
  }

  /**
   * Stops sampling and takes one last sample, so the curve ends at the state
   * the caller has just waited for rather than up to one interval before it.
   */
  async stop(): Promise<ReplicaSample[]> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.sampling;
    await this.sample();
    return this.samples;
  }

  private async sample(): Promise<void> {
    const [out, waiting] = await Promise.all([
      kubectl(['-n', this.namespace, 'get', 'deployment', this.deployment, '-o', 'jsonpath={.spec.replicas} {.status.readyReplicas}']).catch(() => ''),
      // A sample without a backlog reading is kept with the last one seen, not as an empty queue.
      this.backlog().catch(() => this.samples[this.samples.length - 1]?.waiting ?? 0),
    ]);
    const [desired, ready] = out.split(' ').map((n) => Number(n || 0));
    this.samples.push({ at: Math.round((Date.now() - this.startedAt) / 100) / 10, desired: desired ?? 0, ready: ready ?? 0, waiting });
  }
}

/** One line per change of the pool, and at least every ten seconds, for the test log. */
export function curveTable(samples: ReplicaSample[]): string {
  const lines = ['  t (s)  desired  ready  backlog'];
  let previous = '';
  let printedAt = -Infinity;
  for (const s of samples) {
    const key = `${s.desired}/${s.ready}`;
    if (key === previous && s.at - printedAt < 10 && s !== samples[samples.length - 1]) continue;
    previous = key;
    printedAt = s.at;
    lines.push(`${s.at.toFixed(1).padStart(7)}  ${String(s.desired).padStart(7)}  ${String(s.ready).padStart(5)}  ${String(s.waiting).padStart(7)}`);
  }
  return lines.join('\n');
}

/** The curve as an SVG: ready and desired pods on the left axis, the consumer's backlog on the right. */
export async function writeCurveSvg(samples: ReplicaSample[], title: string, path: string): Promise<void> {
  const values = samples.flatMap((s) => [
    { at: s.at, series: 'pods ready', pods: s.ready },
    { at: s.at, series: 'pods asked for', pods: s.desired },
    { at: s.at, series: 'tasks waiting or converting', tasks: s.waiting },
  ]);
  const spec = compile({
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title,
    width: 640,
    height: 260,
    data: { values },
    encoding: { x: { field: 'at', type: 'quantitative', title: 'seconds since the backlog was sent' } },
    layer: [
      {
        transform: [{ filter: 'datum.series !== "tasks waiting or converting"' }],
        mark: { type: 'line', interpolate: 'step-after' },
        encoding: {
          y: { field: 'pods', type: 'quantitative', title: 'converter-document pods', axis: { tickMinStep: 1 } },
          color: { field: 'series', type: 'nominal', title: null },
        },
      },
      {
        transform: [{ filter: 'datum.series === "tasks waiting or converting"' }],
        mark: { type: 'area', opacity: 0.15, color: '#888' },
        encoding: { y: { field: 'tasks', type: 'quantitative', title: 'tasks waiting or converting (backlog)', axis: { orient: 'right' } } },
      },
    ],
    resolve: { scale: { y: 'independent' } },
  }).spec;
  const view = new View(parse(spec), { renderer: 'none' });
  await writeFile(path, await view.toSVG());
  view.finalize();
}
