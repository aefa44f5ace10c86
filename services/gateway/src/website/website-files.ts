import { createReadStream, existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json',
};

/** Asset names Vite writes (`name-hash.ext`): no slashes, no dots leading, nothing to climb out with. */
export const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,200}$/;

export const contentTypeOf = (file: string): string => TYPES[extname(file)] ?? 'application/octet-stream';

/** The built website's files, read from disk on each request (the OS caches them; assets are cached by browsers for a year). */
export class WebsiteFiles {
  constructor(readonly root: string) {}

  get built(): boolean {
    return existsSync(join(this.root, 'index.html'));
  }

  /** A file under the root, or null; `relative` must already be checked against ASSET_NAME segments. */
  async open(relative: string): Promise<{ stream: NodeJS.ReadableStream; size: number; type: string } | null> {
    const path = join(this.root, relative);
    try {
      const info = await stat(path);
      if (!info.isFile()) return null;
      return { stream: createReadStream(path), size: info.size, type: contentTypeOf(path) };
    } catch {
      return null;
    }
  }
}
