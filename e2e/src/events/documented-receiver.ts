import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '@transmute/devstack';

/** What docs/webhooks.md's receiver module exports. */
export interface DocumentedReceiver {
  verifySignature(secret: string, rawBody: Buffer, signatureHeader: string | undefined): boolean;
  createWebhookHandler(options: {
    secret: string;
    onEvent: (event: Record<string, unknown>, meta: { delivery: string; attempt: number; kind: string }) => void;
    seen?: Set<string>;
  }): (req: IncomingMessage, res: ServerResponse) => void;
}

/**
 * The receiver code exactly as docs/webhooks.md shows it (the fenced block
 * marked `js receiver`), written to a file and required: the test runs what
 * readers copy, so the page cannot drift from what works.
 */
export function loadDocumentedReceiver(): DocumentedReceiver {
  const page = readFileSync(join(repoRoot(), 'docs', 'webhooks.md'), 'utf8');
  const match = /```js receiver\n([\s\S]*?)```/.exec(page);
  if (!match?.[1]) throw new Error('docs/webhooks.md has no ```js receiver block');
  const dir = mkdtempSync(join(tmpdir(), 'transmute-receiver-'));
  const file = join(dir, 'receiver.cjs');
  writeFileSync(file, match[1]);
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(file) as DocumentedReceiver;
  } finally {
    // Loaded once required: the file is not needed afterwards.
    rmSync(dir, { recursive: true, force: true });
  }
}
