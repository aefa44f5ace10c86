import { createReadStream, createWriteStream } from 'node:fs';
import { constants, copyFile, mkdir, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ServiceFailure } from '@transmute/contracts';
import { FILE_STREAM_CHUNK_BYTES, type Storage, type StoredObject, type UploadOptions, type UploadTarget, assertSafeKey } from './storage';
import { UrlSigner } from './url-signer';

/** Path under the public URL where the gateway serves the fs driver's signed links. */
export const FS_STORAGE_ROUTE = '/storage';

export interface FsStorageOptions {
  root: string;
  signingKey: string;
  /** The gateway's public base URL, which serves the signed routes. */
  publicUrl: string;
}

/** The embedded default: files under a data directory, links signed for the gateway to serve. */
export class FsStorage implements Storage {
  readonly signer: UrlSigner;

  constructor(private readonly options: FsStorageOptions) {
    this.signer = new UrlSigner(options.signingKey);
  }

  private pathOf(key: string): string {
    assertSafeKey(key);
    return join(this.options.root, key);
  }

  async put(key: string, body: Readable): Promise<StoredObject> {
    const target = this.pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    return this.writeAside(target, (partial) => pipeline(body, createWriteStream(partial, { highWaterMark: FILE_STREAM_CHUNK_BYTES })));
  }

  async putFile(key: string, path: string): Promise<StoredObject> {
    const target = this.pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    try {
      await rename(path, target);
      return { size: (await stat(target)).size };
    } catch (error) {
      // Scratch space on another filesystem (a separate volume): the kernel copies instead.
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    }
    return this.writeAside(target, (partial) => copyFile(path, partial, constants.COPYFILE_FICLONE));
  }

  /** Written aside and renamed, so a reader never sees half a file; `target`'s directory exists. */
  private async writeAside(target: string, write: (partial: string) => Promise<void>): Promise<StoredObject> {
    const partial = `${target}.partial-${randomBytes(6).toString('hex')}`;
    try {
      await write(partial);
      await rename(partial, target);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    return { size: (await stat(target)).size };
  }

  async get(key: string): Promise<Readable> {
    const path = this.pathOf(key);
    if (!(await this.stat(key))) throw ServiceFailure.notFound(`no stored file ${key}`);
    return createReadStream(path);
  }

  async getFile(key: string, path: string): Promise<void> {
    try {
      // A reflink where the filesystem has them, else copy_file_range: the bytes stay in the kernel.
      await copyFile(this.pathOf(key), path, constants.COPYFILE_FICLONE);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw ServiceFailure.notFound(`no stored file ${key}`);
      throw error;
    }
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { size: info.size } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async deleteOlderThan(cutoff: Date): Promise<number> {
    return sweepDirectory(this.options.root, cutoff.getTime(), true);
  }

  /**
   * A signed PUT to the gateway's storage route. With a ceiling the link names
   * the account (signed), and the route reads that account's remaining quota
   * when the bytes arrive: the ceiling is what is left then, not when the
   * link was made.
   */
  async presignUpload(key: string, options: UploadOptions): Promise<UploadTarget> {
    assertSafeKey(key);
    const expires = Math.floor(Date.now() / 1000) + options.expiresInSeconds;
    const path = `${FS_STORAGE_ROUTE}/${key}`;
    const account = options.ceiling?.accountId ?? '';
    const signature = this.signer.sign({ method: 'PUT', path, expires, contentType: options.contentType, filename: '', account });
    const query = new URLSearchParams({ expires: String(expires), ...(account && { account }), signature });
    return {
      url: `${this.options.publicUrl}${path}?${query.toString()}`,
      method: 'PUT',
      headers: { 'Content-Type': options.contentType },
      parameters: {},
      expiresAt: new Date(expires * 1000),
    };
  }

  async presignDownload(key: string, options: { filename: string; expiresInSeconds: number }): Promise<string> {
    assertSafeKey(key);
    const expires = Math.floor(Date.now() / 1000) + options.expiresInSeconds;
    const path = `${FS_STORAGE_ROUTE}/${key}`;
    const signature = this.signer.sign({ method: 'GET', path, expires, contentType: '', filename: options.filename });
    const query = new URLSearchParams({ expires: String(expires), filename: options.filename, signature });
    return `${this.options.publicUrl}${path}?${query.toString()}`;
  }
}

/**
 * Removes files modified before `cutoffMs` under `dir` (leftover `.partial-`
 * files included), then the directories that became empty; the root stays.
 * A file that vanishes meanwhile (deleted by another sweep) is not an error.
 */
async function sweepDirectory(dir: string, cutoffMs: number, isRoot = false): Promise<number> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let deleted = 0;
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      deleted += await sweepDirectory(path, cutoffMs);
    } else if (entry.isFile()) {
      const info = await stat(path).catch(() => null);
      if (info && info.mtimeMs < cutoffMs) {
        await rm(path, { force: true });
        deleted += 1;
      }
    }
  }
  // Not empty (or just written into): rmdir refuses, which is the answer wanted.
  if (!isRoot) await rmdir(dir).catch(() => undefined);
  return deleted;
}
