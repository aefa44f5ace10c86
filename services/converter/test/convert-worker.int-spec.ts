import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeManifest, manifestBucket } from '@transmute/messaging';
import { CUBE_OBJ } from '../src/families/3d/three-d.proof';
import { ConverterProcess } from './converter-process';

/**
 * One real converter process (the built service, family `3d`) on a real
 * NATS: it announces its manifest, fails a corrupt input with a clear
 * message and keeps serving, and reports progress before success.
 */
describe('converter worker', () => {
  // Every start reported, however quick the conversion: the order of the reports is what this spec checks.
  const converter = new ConverterProcess('3d', { TRANSMUTE_STARTED_REPORT_DELAY_MS: '0' });
  // What a converter killed mid-task leaves: its pid's scratch directory, with the input it had fetched.
  let killedScratch = '';
  beforeAll(() =>
    converter.start(async (workDir) => {
      const killed = spawn(process.execPath, ['-e', '']);
      await once(killed, 'exit');
      killedScratch = `task-${killed.pid}-killed`;
      await mkdir(join(workDir, killedScratch), { recursive: true });
      await writeFile(join(workDir, killedScratch, 'input.obj'), CUBE_OBJ);
    }),
  );
  afterAll(() => converter.stop());

  it('announces its manifest to the catalogue bucket', async () => {
    const bucket = manifestBucket(converter.nc);
    const manifest = await converter.until(async () => {
      const found = await bucket.get('3d');
      return found?.value.length ? decodeManifest(found.value) : undefined;
    }, 'the manifest');
    expect(manifest.family).toBe('3d');
    expect(manifest.engineVersion).toMatch(/^assimp/);
    expect(manifest.pairs.some((pair) => pair.inputFormat === 'obj' && pair.outputFormat === 'glb')).toBe(true);
  });

  it('fails a corrupt input with a clear, permanent error and keeps serving', async () => {
    await converter.submit('corrupt', 'this is not a 3ds model', '3ds', 'obj');
    const failed = await converter.until(() => converter.ended('corrupt'), 'the corrupt task outcome');
    expect(failed.outcome.case).toBe('failed');
    const error = failed.outcome.case === 'failed' ? failed.outcome.value.error : undefined;
    expect(error?.retryable).toBe(false);
    expect(error?.message).toMatch(/^assimp exited with code \d+: .*ERROR/);

    await converter.submit('after-corrupt', CUBE_OBJ, 'obj', 'glb');
    const succeeded = await converter.until(() => converter.ended('after-corrupt'), 'the next task outcome');
    expect(succeeded.outcome.case).toBe('succeeded');
    const file = succeeded.outcome.case === 'succeeded' ? succeeded.outcome.value.file : undefined;
    expect(file).toMatchObject({ filename: 'model.glb', format: 'glb' });
    const chunks: Buffer[] = [];
    for await (const chunk of await converter.storage.get(file!.key)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).subarray(0, 4).toString('latin1')).toBe('glTF');
    expect(converter.exitCode).toBeNull();
  });

  it('reports progress between started and succeeded', async () => {
    await converter.submit('progress', CUBE_OBJ, 'obj', 'stl', { encoding: 'ascii' });
    await converter.until(() => converter.ended('progress'), 'the progress task outcome');
    const kinds = converter.outcomes.filter((outcome) => outcome.taskName === 'progress').map((outcome) => outcome.outcome.case);
    expect(kinds[0]).toBe('started');
    expect(kinds).toContain('progress');
    expect(kinds.indexOf('progress')).toBeLessThan(kinds.indexOf('succeeded'));
  });

  it("removes a killed converter's scratch directory when it starts", async () => {
    await converter.until(async () => !(await readdir(converter.workDir).catch(() => [killedScratch])).includes(killedScratch), 'the scratch of the killed converter removed');
    // The warning trails the removal through the process's stdout pipe.
    await converter.until(() => converter.hasLogged('removed the scratch directories of converters that were killed'), 'the removal logged');
  });

  it('removes the scratch directory of each task once its outcome is reported, a failed one too', async () => {
    await converter.submit('scratch-ok', CUBE_OBJ, 'obj', 'stl');
    await converter.submit('scratch-corrupt', 'not a model', '3ds', 'obj');
    await converter.until(() => converter.ended('scratch-ok') && converter.ended('scratch-corrupt'), 'both outcomes');
    // Removed after the outcome goes out, so it may trail it by a moment.
    await converter.until(async () => (await readdir(converter.workDir)).length === 0 || undefined, 'an empty scratch space');
    expect(await readdir(converter.workDir)).toEqual([]);
  });
});

describe('converter worker, a conversion quicker than the started-report delay', () => {
  // Far above any conversion of a cube, so the spec checks the setting's reach, not the machine's speed.
  const converter = new ConverterProcess('3d', { TRANSMUTE_STARTED_REPORT_DELAY_MS: '20000' });
  beforeAll(() => converter.start());
  afterAll(() => converter.stop());

  it('reports only its end: no started, and none of the progress its family reports', async () => {
    await converter.submit('quick', CUBE_OBJ, 'obj', 'stl', { encoding: 'ascii' });
    await converter.until(() => converter.ended('quick'), 'the quick task outcome');
    const kinds = converter.outcomes.filter((outcome) => outcome.taskName === 'quick').map((outcome) => outcome.outcome.case);
    expect(kinds).toEqual(['succeeded']);
  });
});
