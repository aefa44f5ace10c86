import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ConversionRequest, ConverterFamily } from '../family';

/*
 * Shared by the audio and video family specs, which drive ffmpeg the same
 * way. Plain functions, no jest globals: this file is not a spec.
 */

const exec = promisify(execFile);

/** ffprobe's JSON report of `entries` (in its -show_entries syntax) for one file. */
export async function probeJson<T>(path: string, entries: string): Promise<T> {
  const { stdout } = await exec('ffprobe', ['-v', 'error', '-show_entries', entries, '-of', 'json', path]);
  return JSON.parse(stdout) as T;
}

type FileConversion = Pick<ConversionRequest, 'inputPath' | 'outputPath' | 'inputFormat' | 'outputFormat'> & {
  options?: Record<string, unknown>;
  /** Collects every progress report, in order. */
  progress?: number[];
};

/** Runs one conversion as a task would, with a live signal. */
export function convertFile(family: ConverterFamily, conversion: FileConversion): Promise<void> {
  const progress = conversion.progress ?? [];
  return family.convert({
    inputPath: conversion.inputPath,
    outputPath: conversion.outputPath,
    inputFormat: conversion.inputFormat,
    outputFormat: conversion.outputFormat,
    options: conversion.options ?? {},
    signal: new AbortController().signal,
    reportProgress: (percent) => progress.push(percent),
  });
}

let outputs = 0;

/** Converts `inputPath` into a new numbered file in `dir` (so results never overwrite each other) and returns its path. */
export async function convertToNewFile(family: ConverterFamily, dir: string, conversion: Omit<FileConversion, 'outputPath'>): Promise<string> {
  const outputPath = join(dir, `out-${outputs++}.${conversion.outputFormat}`);
  await convertFile(family, { ...conversion, outputPath });
  return outputPath;
}
