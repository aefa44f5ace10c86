import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EngineProcess, EngineProcessEvents } from '../../../engine/supervisor/engine-process';
import { JsonLinesProcess } from '../../../engine/supervisor/json-lines-process';
import { OFFICE_BRIDGE_SOURCE } from './office-bridge-source';
import { officeSocketPaths } from './office-sockets';

/** What the document family asks one warm LibreOffice to do. */
export interface OfficeJob {
  input: string;
  output: string;
  /** Import filter; forcing it keeps a corrupt .docx from being opened as plain text. */
  importFilter?: string;
  importOptions?: string;
  /** Export filter name, e.g. `writer_pdf_Export`. */
  filter: string;
  filterOptions?: string;
  filterData?: Record<string, string | number | boolean>;
}

const START_TIMEOUT_MS = 90_000;

/**
 * One long-running LibreOffice with its own user profile (two processes on
 * one profile silently lose files), driven over UNO by a small Python bridge
 * that speaks the supervisor's JSON-lines protocol. The bridge leads its own
 * process group, so killing the group takes soffice.bin with it.
 */
export function officeProcess(
  slot: number,
  settings: {
    /** Finds the programs and makes the profiles' parent before each start; a throw is a failed start. */
    prepare: () => Promise<void>;
    programs: () => { python: string; soffice: string; profileDir: string };
    env: NodeJS.ProcessEnv;
  },
  events: EngineProcessEvents,
): EngineProcess<OfficeJob> {
  return new JsonLinesProcess<OfficeJob>(
    {
      label: 'LibreOffice',
      prepare: settings.prepare,
      command: () => settings.programs().python,
      launch: async () => {
        const { soffice, profileDir } = settings.programs();
        const profileUrl = pathToFileURL(profileDir).href;
        // A fresh UNO pipe name per start: a restarted soffice never meets its killed predecessor's socket.
        const pipeName = `transmute-office-${process.pid}-${slot}-${Date.now()}`;
        // LibreOffice's temporary files (a lu*.tmp per process, a document's while it converts, the warm-up) go
        // inside the profile, emptied at each start: a killed soffice cannot remove its own, and in /tmp
        // nothing would say whose they were.
        const tempDir = join(profileDir, 'tmp');
        await rm(tempDir, { recursive: true, force: true });
        await mkdir(tempDir, { recursive: true });
        return {
          args: ['-c', OFFICE_BRIDGE_SOURCE, soffice, profileUrl, pipeName],
          env: { TMPDIR: tempDir },
          leftovers: officeSocketPaths(profileUrl, pipeName),
        };
      },
      env: settings.env,
      startTimeoutMs: START_TIMEOUT_MS,
      refusal: (error) => `LibreOffice could not convert the file: ${error}`,
    },
    events,
  );
}
