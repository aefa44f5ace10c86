import { z } from 'zod';
import { type ConfigOf, envVar, positiveInt } from '@transmute/service-kit';
import { engineSupervisorConfig } from '../../../engine/supervisor/engine-supervisor.config';

/** Settings of the document family's warm pdf2docx processes (PDF → DOCX, and through it ODT, RTF, DOC). */
export const pdfToWordConfig = {
  ...engineSupervisorConfig,
  size: envVar('TRANSMUTE_PDF2DOCX_POOL_SIZE', positiveInt().max(8).default(1), 'Warm pdf2docx processes the document family keeps for PDF → Word.'),
  timeoutMs: envVar(
    'TRANSMUTE_PDF2DOCX_TIMEOUT_MS',
    positiveInt().min(1_000).default(300_000),
    'A PDF → Word reconstruction still running after this long is killed with its process and the slot restarted.',
  ),
  maxConversions: envVar('TRANSMUTE_PDF2DOCX_MAX_CONVERSIONS', positiveInt().default(100), 'Conversions one pdf2docx process serves before it is restarted (bounds leaks).'),
  python: envVar(
    'TRANSMUTE_PDF2DOCX_PYTHON',
    z.string().min(1).default('/usr/bin/python3'),
    'Python interpreter that imports pdf2docx (Debian: python3-fitz, python3-docx, python3-opencv, plus pdf2docx from PyPI).',
  ),
};

export type PdfToWordConfig = ConfigOf<typeof pdfToWordConfig>;
