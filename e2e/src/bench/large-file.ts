import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TransmuteClient } from '../support/api-client';
import { taskOf, uploadConvertExport } from '../support/api-types';
import { openJobEvents } from '../events/sse-client';
import { decodeImage, noisePng } from '../support/samples';
import { median } from './bench-kit';
import { peakRss, type PlatformCpu } from './platform-cpu';

/** What the large-file section measured: medians of `runs` runs each. */
export interface LargeFileResult {
  sourceBytes: number;
  vipsMs: number;
  e2eMs: number;
  converterRssBeforeBytes: number;
  converterRssPeakBytes: number;
  cpuSecondsPerJob: number;
}

/** The `vips` CLI alone: decode the PNG, encode WebP at the platform's default quality (80). */
async function vipsOnce(input: string, output: string): Promise<number> {
  const began = performance.now();
  await promisify(execFile)('vips', ['copy', input, `${output}[Q=80]`], { timeout: 300_000 });
  return performance.now() - began;
}

/**
 * One job as a client does it, timed from the create request to the last
 * byte of the download: import/upload (PUT of the bytes), complete-upload,
 * job.finished on the event stream, the export link followed to the file.
 * `phases` splits that time, so the engine's share shows beside the hops.
 */
/** Each phase of one platform run and how long it took, in the order they ran. */
type Phases = Array<{ name: string; ms: number }>;

const formatPhases = (phases: Phases): string => phases.map(({ name, ms }) => `${name} ${ms.toFixed(0)} ms`).join(', ');

async function platformOnce(client: TransmuteClient, apiKey: string, bytes: Buffer, tag: string): Promise<{ ms: number; result: Buffer; phases: Phases }> {
  const began = performance.now();
  const phases: Phases = [];
  let phaseBegan = began;
  const mark = (name: string) => {
    const now = performance.now();
    phases.push({ name, ms: now - phaseBegan });
    phaseBegan = now;
  };
  const job = await client.createJob(uploadConvertExport('png', 'webp', tag));
  const form = taskOf(job, 'import-my-file').result?.form;
  if (!form) throw new Error('no upload form on the import task');
  const uploaded = await client.upload(form, bytes);
  mark('create and upload');
  if (uploaded.status !== 200) throw new Error(`the upload answered ${uploaded.status}: ${uploaded.text.slice(0, 160)}`);
  const stream = await openJobEvents(client.baseUrl, apiKey, job.id);
  try {
    if (stream.status !== 200) throw new Error(`events answered ${stream.status}`);
    await client.completeUpload(job.id);
    mark('events and complete');
    for (;;) {
      const event = await stream.next(Math.max(1, began + 600_000 - performance.now()));
      if (event.event === 'job.failed') throw new Error(`job failed: ${event.data.slice(0, 200)}`);
      if (event.event !== 'job.finished') continue;
      const finished = JSON.parse(event.data) as typeof job;
      mark('until finished');
      const url = taskOf(finished, 'export-my-file').result?.url;
      if (!url) throw new Error('no export url');
      const result = (await client.download(url)).file.bytes;
      mark('download');
      return { ms: performance.now() - began, result, phases };
    }
  } finally {
    stream.close();
  }
}

/**
 * 4000x3000 noise PNG -> WebP: the platform end to end against the `vips`
 * CLI alone on the same file, with the image converter's RSS sampled every
 * 50 ms during each platform run and the platform's CPU per job.
 */
export async function largeFileSection(options: {
  client: TransmuteClient;
  apiKey: string;
  dir: string;
  runs: number;
  cpu: PlatformCpu;
  converterPid: () => number | undefined;
  log: (line: string) => void;
}): Promise<LargeFileResult> {
  const { client, apiKey, dir, runs, cpu, converterPid, log } = options;
  const sample = await noisePng(4000, 3000);
  const input = join(dir, 'large.png');
  await writeFile(input, sample.bytes);
  log(`\n== Large file: 4000x3000 noise PNG (${(sample.bytes.length / 1e6).toFixed(1)} MB) -> WebP; ${runs} runs each, one at a time ==`);
  const vips: number[] = [];
  const e2e: number[] = [];
  const cpuSeconds: number[] = [];
  let rssBefore = Number.POSITIVE_INFINITY;
  let rssPeak = 0;
  for (let run = 0; run < runs; run++) {
    // Alternated, so a change in the machine's load falls on both sides alike.
    const output = join(dir, `vips-${run}.webp`);
    vips.push(await vipsOnce(input, output));
    const measured = await cpu.around(() => peakRss(converterPid, 50, () => platformOnce(client, apiKey, sample.bytes, `bench-large-${run}`)));
    const { result, peakBytes, beforeBytes } = measured.result;
    e2e.push(result.ms);
    cpuSeconds.push(measured.cpuSeconds);
    rssBefore = Math.min(rssBefore, beforeBytes);
    rssPeak = Math.max(rssPeak, peakBytes);
    if (run === 0) {
      const [image, reference] = await Promise.all([decodeImage(result.result), decodeImage(await readFile(output))]);
      if (image.format !== 'webp' || image.width !== 4000 || image.height !== 3000) throw new Error(`the export is ${JSON.stringify(image)}, not a 4000x3000 WebP`);
      if (reference.format !== 'webp') throw new Error(`vips wrote ${JSON.stringify(reference)}, not a WebP`);
    }
    log(
      `  run ${run + 1}: vips ${vips[run]!.toFixed(0)} ms, platform ${result.ms.toFixed(0)} ms, converter RSS peak ${(peakBytes / 1e6).toFixed(0)} MB, platform CPU ${measured.cpuSeconds.toFixed(2)} s; ${formatPhases(result.phases)}`,
    );
  }
  return {
    sourceBytes: sample.bytes.length,
    vipsMs: median(vips),
    e2eMs: median(e2e),
    converterRssBeforeBytes: rssBefore,
    converterRssPeakBytes: rssPeak,
    cpuSecondsPerJob: median(cpuSeconds),
  };
}
