import { readFile } from 'node:fs/promises';

/** The parts of a `.cpuprofile` (Chrome DevTools' format, what V8's profiler writes) a summary reads. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string } }[];
  samples: number[];
  /** Microseconds since the previous sample. */
  timeDeltas: number[];
}

export interface ProfileSummary {
  /** Sampled time not idle, ms. */
  busyMs: number;
  /** Where the busy time went, largest first: [group, ms]. */
  groups: [string, number][];
  /** The functions with the most self time, largest first: [function (group), ms]. */
  functions: [string, number][];
}

const IDLE = '(idle)';

/**
 * What a frame belongs to: an npm package by name, a workspace package
 * (`libs/<name>`, a service's own code), a Node.js core module, V8's own
 * work (garbage collection, the frames it does not attribute), or a native
 * binding with no script (socket writes, zlib).
 */
export function groupOf(url: string, functionName: string): string {
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === '(program)') return 'V8 and native (unattributed)';
  if (url === '') return 'native bindings';
  const nodeModule = /^node:(?:internal\/)?([^/]+)/.exec(url);
  if (nodeModule) return `node:${nodeModule[1]}`;
  const packages = url.split('/node_modules/');
  if (packages.length > 1) {
    const [first = '', second = ''] = (packages.at(-1) ?? '').split('/');
    return first.startsWith('@') ? `${first}/${second}` : first;
  }
  const workspace = /\/(libs|services)\/([^/]+)\//.exec(url);
  if (workspace) return workspace[1] === 'libs' ? `@transmute/${workspace[2]}` : `service ${workspace[2]}`;
  return 'other scripts';
}

/** Self time by group and by function, from the samples (each sample's delta goes to the frame it caught). */
export function summarizeProfile(profile: CpuProfile, topFunctions = 8): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const groups = new Map<string, number>();
  const functions = new Map<string, number>();
  let busyUs = 0;
  profile.samples.forEach((id, index) => {
    const frame = byId.get(id);
    const delta = profile.timeDeltas[index] ?? 0;
    // The first delta runs from the profile's start, through the profiler's own start-up, to the first tick: not a sample.
    if (index === 0 || !frame || frame.functionName === IDLE || frame.functionName === '(root)') return;
    busyUs += delta;
    const group = groupOf(frame.url, frame.functionName);
    groups.set(group, (groups.get(group) ?? 0) + delta);
    const name = `${frame.functionName || '(anonymous)'} (${group})`;
    functions.set(name, (functions.get(name) ?? 0) + delta);
  });
  const largest = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]).map(([key, us]): [string, number] => [key, us / 1000]);
  return { busyMs: busyUs / 1000, groups: largest(groups), functions: largest(functions).slice(0, topFunctions) };
}

export async function readProfile(path: string): Promise<CpuProfile> {
  return JSON.parse(await readFile(path, 'utf8')) as CpuProfile;
}

/** Lines for a report: busy time, then each group's share of it down to `minShare`, then the top functions. */
export function describeSummary(label: string, summary: ProfileSummary, minShare = 0.02): string[] {
  const share = (ms: number) => `${((100 * ms) / Math.max(summary.busyMs, 1e-9)).toFixed(1)} %`;
  const groups = summary.groups.filter(([, ms]) => ms >= minShare * summary.busyMs).map(([group, ms]) => `${group} ${share(ms)}`);
  return [
    `  ${label}: ${(summary.busyMs / 1000).toFixed(2)} s busy`,
    `    by package: ${groups.join(', ')}`,
    `    top functions (self): ${summary.functions.map(([name, ms]) => `${name} ${share(ms)}`).join('; ')}`,
  ];
}
