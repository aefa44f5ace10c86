import { writeFile } from 'node:fs/promises';
import { View, parse } from 'vega';
import { compile } from 'vega-lite';
import { kubectl } from './cluster-kit';

/**
 * The size of one converter pool over time, sampled from its Deployment while
 * a test loads it, with the backlog the test still waits on: printed as a
 * table and drawn as an SVG (Vega-Lite) for the docs.
 */

export interface ReplicaSample {
  /** Seconds since the recording started. */
  at: number;
  /** Pods the autoscaler asked for (spec.replicas). */
  desired: number;
  /** Pods ready to take work. */
  ready: number;
  /** Jobs submitted to the pool that have not ended yet. */
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
    private readonly waiting: () => number,
  ) {}

  start(intervalMs = 2000): void {
    const tick = () => {
      this.sampling = this.sample().finally(() => {
        if (this.timer) this.timer = setTimeout(tick, intervalMs);
      });
    };
    this.timer = setTimeout(tick, 0);
  }

  async stop(): Promise<ReplicaSample[]> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.sampling;
    return this.samples;
  }

  private async sample(): Promise<void> {
    const out = await kubectl(['-n', this.namespace, 'get', 'deployment', this.deployment, '-o', 'jsonpath={.spec.replicas} {.status.readyReplicas}']).catch(() => '');
    const [desired, ready] = out.split(' ').map((n) => Number(n || 0));
    this.samples.push({ at: Math.round((Date.now() - this.startedAt) / 100) / 10, desired: desired ?? 0, ready: ready ?? 0, waiting: this.waiting() });
  }
}

/** One line per change, for the test log. */
export function curveTable(samples: ReplicaSample[]): string {
  const lines = ['  t (s)  desired  ready  waiting'];
  let previous = '';
  for (const s of samples) {
    const key = `${s.desired}/${s.ready}`;
    if (key === previous && s !== samples[samples.length - 1]) continue;
    previous = key;
    lines.push(`${s.at.toFixed(1).padStart(7)}  ${String(s.desired).padStart(7)}  ${String(s.ready).padStart(5)}  ${String(s.waiting).padStart(7)}`);
  }
  return lines.join('\n');
}

/** The curve as an SVG: ready and desired pods on the left axis, the backlog on the right. */
export async function writeCurveSvg(samples: ReplicaSample[], title: string, path: string): Promise<void> {
  const values = samples.flatMap((s) => [
    { at: s.at, series: 'pods ready', pods: s.ready },
    { at: s.at, series: 'pods asked for', pods: s.desired },
    { at: s.at, series: 'jobs not ended', jobs: s.waiting },
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
        transform: [{ filter: 'datum.series !== "jobs not ended"' }],
        mark: { type: 'line', interpolate: 'step-after' },
        encoding: {
          y: { field: 'pods', type: 'quantitative', title: 'converter-document pods', axis: { tickMinStep: 1 } },
          color: { field: 'series', type: 'nominal', title: null },
        },
      },
      {
        transform: [{ filter: 'datum.series === "jobs not ended"' }],
        mark: { type: 'area', opacity: 0.15, color: '#888' },
        encoding: { y: { field: 'jobs', type: 'quantitative', title: 'jobs not ended', axis: { orient: 'right' } } },
      },
    ],
    resolve: { scale: { y: 'independent' } },
  }).spec;
  const view = new View(parse(spec), { renderer: 'none' });
  await writeFile(path, await view.toSVG());
  view.finalize();
}
