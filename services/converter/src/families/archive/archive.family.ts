import { copyFile, mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ServiceFailure } from '@transmute/contracts';
import { runEngine } from '../../engine/run-engine';
import type { ConversionRequest, ConverterFamily, PairDeclaration } from '../family';
import { type EngineCall, compressCall, createCall, decompressCall, extractCall, listCall } from './archive-commands';
import { ARCHIVE_FORMATS, type ArchiveFormat, type ContainerFormat, type StreamFormat } from './archive-formats';
import type { ArchiveLimits } from './archive-limits.config';
import { archiveOptions, compressionLevel } from './archive-options';
import { checkEntryNames, checkExtractedTree, watchExpansion } from './archive-safety';

const ENGINE_TIMEOUT_MS = 30 * 60_000;

/**
 * Archives through libarchive's bsdtar and 7-Zip: a container is listed,
 * checked, extracted into a scratch folder under watch, checked again and
 * packed into the target; a single compressed stream is decompressed and
 * recompressed. The scratch folder sits beside the output, inside the task's.
 */
export class ArchiveFamily implements ConverterFamily {
  readonly name = 'archive';
  engineVersion = 'bsdtar / 7-Zip';

  constructor(private readonly limits: ArchiveLimits) {}

  async start(): Promise<void> {
    const signal = AbortSignal.timeout(30_000);
    const [bsdtar, sevenZip] = await Promise.all([
      runEngine({ command: 'bsdtar', args: ['--version'], timeoutMs: 30_000, signal }),
      runEngine({ command: '7zz', args: ['i'], timeoutMs: 30_000, signal }),
    ]);
    const libarchive = /libarchive (\S+)/.exec(bsdtar.stdout)?.[1] ?? '?';
    const sevenZipVersion = /7-Zip \(z\) (\S+)/.exec(sevenZip.stdout)?.[1] ?? '?';
    this.engineVersion = `libarchive ${libarchive} / 7-Zip ${sevenZipVersion}`;
  }

  pairs(): PairDeclaration[] {
    const pairs: PairDeclaration[] = [];
    for (const [inputFormat, input] of Object.entries(ARCHIVE_FORMATS)) {
      for (const [outputFormat, output] of Object.entries(ARCHIVE_FORMATS)) {
        if (inputFormat === outputFormat || !writable(output)) continue;
        // A single stream holds one file and no names: it converts only to another single stream.
        if ((input.kind === 'stream') !== (output.kind === 'stream')) continue;
        if (sameWriter(input, output)) continue;
        pairs.push({ inputFormat, outputFormat, options: archiveOptions(output) });
      }
    }
    return pairs;
  }

  async convert(request: ConversionRequest): Promise<void> {
    const input = ARCHIVE_FORMATS[request.inputFormat];
    const output = ARCHIVE_FORMATS[request.outputFormat];
    if (!input || !output || !writable(output) || (input.kind === 'stream') !== (output.kind === 'stream')) {
      throw ServiceFailure.validation(`the archive family does not convert ${request.inputFormat} to ${request.outputFormat}`);
    }
    const scratch = await mkdtemp(join(dirname(request.outputPath), 'archive-'));
    try {
      const level = compressionLevel(request.options, output);
      if (input.kind === 'stream' && output.kind === 'stream') await this.recompress(request, input, output, scratch, level);
      else await this.repack(request, output as ContainerFormat, scratch, level);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  private async repack(request: ConversionRequest, output: ContainerFormat, scratch: string, level: number | undefined): Promise<void> {
    const { stdout } = await this.run(listCall(request.inputPath), request.signal, request.inputFormat);
    checkEntryNames(
      stdout.split('\n').filter((name) => name !== ''),
      this.limits,
    );
    const root = join(scratch, 'root');
    await this.extractWatched(request, root, async () => extractCall(request.inputPath, root));
    await checkExtractedTree(root);
    request.reportProgress(50);
    const children = await readdir(root);
    if (children.length === 0) throw ServiceFailure.validation(`the ${request.inputFormat} archive has no entries to convert`);
    const listFile = join(scratch, 'entries.list');
    await writeFile(listFile, children.map((name) => `${name}\0`).join(''));
    await this.run(createCall(output, request.outputPath, root, listFile, level), request.signal, request.outputFormat);
  }

  private async recompress(request: ConversionRequest, input: StreamFormat, output: StreamFormat, scratch: string, level: number | undefined) {
    const root = join(scratch, 'root');
    const packed = join(root, `data.${request.inputFormat}`);
    const data = join(root, 'data');
    await this.extractWatched(request, root, async () => {
      // The tools write `data` beside `data.<ext>`; the copy keeps the task's input untouched.
      await copyFile(request.inputPath, packed);
      return decompressCall(input, packed, data);
    });
    await rm(packed, { force: true });
    request.reportProgress(50);
    const target = join(root, `data.${request.outputFormat}`);
    await this.run(compressCall(output, data, target, level), request.signal, request.outputFormat);
    await rename(target, request.outputPath);
  }

  /** Runs an extraction into `root` while watching what it writes; a limit broken mid-way kills the engine. */
  private async extractWatched(request: ConversionRequest, root: string, prepare: () => Promise<EngineCall>): Promise<void> {
    await mkdir(root, { recursive: true });
    const inputSize = (await stat(request.inputPath)).size;
    const abort = new AbortController();
    const watch = watchExpansion(root, inputSize, this.limits, abort);
    try {
      await this.run(await prepare(), AbortSignal.any([request.signal, abort.signal]), request.inputFormat);
    } catch (error) {
      // The watcher's reason beats the engine's "killed" when the watcher did the killing.
      throw watch.failure() ?? error;
    } finally {
      watch.stop();
    }
    await watch.finish();
  }

  private async run(call: EngineCall, signal: AbortSignal, format: string) {
    try {
      return await runEngine({ ...call, timeoutMs: ENGINE_TIMEOUT_MS, signal });
    } catch (error) {
      if (error instanceof ServiceFailure && !error.retryable) {
        throw ServiceFailure.validation(`could not convert the ${format} archive: ${error.message}`);
      }
      throw error;
    }
  }
}

function writable(format: ArchiveFormat): boolean {
  return format.kind === 'stream' || format.writer !== undefined;
}

/** tbz and tbz2 are one format under two names: converting between them would only rename the file. */
function sameWriter(a: ArchiveFormat, b: ArchiveFormat): boolean {
  return a.kind === 'container' && b.kind === 'container' && JSON.stringify(a.writer) === JSON.stringify(b.writer) && a.writer !== undefined;
}
