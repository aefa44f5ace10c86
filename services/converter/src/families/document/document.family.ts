import { mkdtemp, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ServiceFailure } from '@transmute/contracts';
import { runEngine } from '../../engine/run-engine';
import type { ConversionRequest, ConverterFamily, FamilyReadiness, PairDeclaration } from '../family';
import { PDF_VERSION_CODE, documentSettings, markupOptions, officeOptions, pageDocumentOptions, pageRange, pdfToolOptions, type DocumentSettings } from './document-options';
import { MARKUP_READERS, MARKUP_VIA_OFFICE, MARKUP_WRITERS } from './markup-formats';
import { CSV_DELIMITERS, OFFICE_INPUTS, OFFICE_OUTPUTS, OFFICE_PDF_IMPORT, type OfficeInput } from './office-formats';
import type { OfficeJob } from './office-pool/office-instance';
import { OfficePool } from './office-pool/office-pool';
import type { OfficePoolSettings } from './office-pool/office-pool.config';
import { documentPairNote } from './document-notes';
import { convertWithPandoc } from './pandoc';
import { PDF_TOOL_OUTPUTS, convertWithPdfTools } from './pdf-tools';
import { PAGE_DOCUMENT_OUTPUTS, convertPageDocument } from './page-documents';
import { PdfToWordEngine, type PdfToWordSettings } from './pdf-to-word/pdf-to-word-engine';

/** PDF → editable documents: pdf2docx rebuilds a DOCX, LibreOffice turns it into the others (docs/decisions.md, "PDF to Word"). */
export const PDF_TO_WORD_OUTPUTS = ['docx', 'odt', 'rtf'] as const;

const DEFAULT_PDF_TO_WORD: PdfToWordSettings = { size: 1, timeoutMs: 300_000, maxConversions: 100, python: '/usr/bin/python3' };

/** Writer names that read back as the same pandoc reader: converting to them would be a copy. */
const WRITER_AS_READER: Record<string, string> = { html5: 'html', docbook5: 'docbook' };

/**
 * Office documents through a warm LibreOffice pool, markup through pandoc,
 * PDF and PostScript through poppler and Ghostscript.
 */
export class DocumentFamily implements ConverterFamily {
  readonly name = 'document';
  engineVersion = 'LibreOffice, pandoc, poppler, Ghostscript';
  readonly pool: OfficePool;
  readonly pdfToWord: PdfToWordEngine;

  private readonly sofficeCommand: string;

  constructor(config: OfficePoolSettings, pdfToWord: PdfToWordSettings = DEFAULT_PDF_TO_WORD) {
    this.pool = new OfficePool(config);
    this.pdfToWord = new PdfToWordEngine(pdfToWord);
    this.sofficeCommand = config.soffice;
  }

  pairs(): PairDeclaration[] {
    const pairs: PairDeclaration[] = [];
    for (const [inputFormat, input] of Object.entries(OFFICE_INPUTS)) {
      for (const outputFormat of Object.keys(OFFICE_OUTPUTS[input.kind])) {
        if (outputFormat !== inputFormat && !input.notTo?.includes(outputFormat))
          pairs.push({ inputFormat, outputFormat, options: officeOptions(input.kind, outputFormat), note: documentPairNote(inputFormat, outputFormat) });
      }
    }
    for (const [inputFormat, reader] of Object.entries(MARKUP_READERS)) {
      for (const [outputFormat, { writer }] of Object.entries(MARKUP_WRITERS)) {
        if ((WRITER_AS_READER[writer] ?? writer) === reader) continue;
        pairs.push({ inputFormat, outputFormat, options: markupOptions(outputFormat) });
      }
      for (const outputFormat of Object.keys(MARKUP_VIA_OFFICE)) pairs.push({ inputFormat, outputFormat, options: markupOptions(outputFormat) });
    }
    for (const [inputFormat, outputs] of Object.entries(PDF_TOOL_OUTPUTS)) {
      for (const outputFormat of outputs)
        pairs.push({ inputFormat, outputFormat, options: pdfToolOptions(inputFormat, outputFormat), note: documentPairNote(inputFormat, outputFormat) });
    }
    pairs.push({ inputFormat: 'pdf', outputFormat: 'odg', options: [] });
    for (const [inputFormat, outputs] of Object.entries(PAGE_DOCUMENT_OUTPUTS)) {
      for (const outputFormat of outputs) pairs.push({ inputFormat, outputFormat, options: pageDocumentOptions(outputFormat), note: documentPairNote(inputFormat, outputFormat) });
    }
    for (const outputFormat of PDF_TO_WORD_OUTPUTS) pairs.push({ inputFormat: 'pdf', outputFormat, options: pdfToolOptions('pdf', outputFormat) });
    return pairs;
  }

  /** LibreOffice warms up (and retries a failed start) in the background: pandoc and poppler pairs convert meanwhile. */
  async start(): Promise<void> {
    void this.pool.start();
    const signal = AbortSignal.timeout(30_000);
    const firstLine = async (command: string, args: string[]) =>
      (
        await runEngine({ command, args, timeoutMs: 30_000, signal, memoryLimitMb: 0 })
          .then((out) => out.stdout + out.stderr)
          .catch(() => '')
      )
        .split('\n')[0]
        ?.trim();
    const [office, pandoc, gs] = await Promise.all([firstLine(this.sofficeCommand, ['--version']), firstLine('pandoc', ['--version']), firstLine('gs', ['--version'])]);
    this.engineVersion = `${office?.split(' ').slice(0, 2).join(' ') || 'LibreOffice'} (warm pool) / ${pandoc || 'pandoc'} / Ghostscript ${gs || '?'} / poppler`;
  }

  async stop(): Promise<void> {
    await Promise.all([this.pool.stop(), this.pdfToWord.stop()]);
  }

  /** Ready while both engine supervisors are: a routine restart (worn out, crashed, hung) or an idle stop keeps it ready. */
  readiness(): FamilyReadiness {
    const engines = [this.pool.readiness(), this.pdfToWord.readiness()];
    return { ready: engines.every((engine) => engine.ready), detail: engines.map((engine) => engine.detail).join('; ') };
  }

  async convert(request: ConversionRequest): Promise<void> {
    const settings = documentSettings(request.options);
    const { inputFormat, outputFormat } = request;
    request.reportProgress(1);
    const office = OFFICE_INPUTS[inputFormat];
    if (office && outputFormat in OFFICE_OUTPUTS[office.kind] && !office.notTo?.includes(outputFormat)) {
      await this.convertInOffice(request.inputPath, request.outputPath, office, outputFormat, settings, request.signal);
    } else if (inputFormat in MARKUP_READERS && (outputFormat in MARKUP_WRITERS || outputFormat in MARKUP_VIA_OFFICE)) {
      await this.convertMarkup(request, settings);
    } else if (inputFormat === 'pdf' && (PDF_TO_WORD_OUTPUTS as readonly string[]).includes(outputFormat)) {
      await this.convertPdfToWord(request, settings);
    } else if (inputFormat === 'pdf' && outputFormat === 'odg') {
      await this.convertInOffice(request.inputPath, request.outputPath, OFFICE_PDF_IMPORT, 'odg', settings, request.signal);
    } else if (PAGE_DOCUMENT_OUTPUTS[inputFormat]?.includes(outputFormat)) {
      await convertPageDocument({ ...request, settings });
    } else if (PDF_TOOL_OUTPUTS[inputFormat]?.includes(outputFormat)) {
      await convertWithPdfTools({ ...request, settings });
    } else {
      throw ServiceFailure.validation(`the document family does not convert ${inputFormat} to ${outputFormat}`);
    }
    request.reportProgress(100);
  }

  private async convertMarkup(request: ConversionRequest, settings: DocumentSettings): Promise<void> {
    const officeFilter = MARKUP_VIA_OFFICE[request.outputFormat];
    if (!officeFilter) {
      await convertWithPandoc({ ...request, settings });
      return;
    }
    const scratch = await mkdtemp(join(dirname(request.outputPath), 'pandoc-'));
    try {
      const odt = join(scratch, 'intermediate.odt');
      await convertWithPandoc({ ...request, outputPath: odt, outputFormat: 'odt', settings });
      request.reportProgress(50);
      await this.pool.convert(
        {
          input: odt,
          output: request.outputPath,
          importFilter: OFFICE_INPUTS['odt']!.importFilter,
          filter: officeFilter,
          filterData: this.pdfData(request.outputFormat, settings),
        },
        request.signal,
      );
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  private async convertPdfToWord(request: ConversionRequest, settings: DocumentSettings): Promise<void> {
    const pages = { firstPage: settings.pageFrom, lastPage: settings.pageTo };
    if (request.outputFormat === 'docx') {
      await this.pdfToWord.convert({ input: request.inputPath, output: request.outputPath, ...pages }, request.signal);
      return;
    }
    const scratch = await mkdtemp(join(dirname(request.outputPath), 'pdf2docx-'));
    try {
      const docx = join(scratch, 'rebuilt.docx');
      await this.pdfToWord.convert({ input: request.inputPath, output: docx, ...pages }, request.signal);
      request.reportProgress(60);
      await this.convertInOffice(docx, request.outputPath, OFFICE_INPUTS['docx']!, request.outputFormat, settings, request.signal);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  private async convertInOffice(input: string, output: string, office: OfficeInput, outputFormat: string, settings: DocumentSettings, signal: AbortSignal): Promise<void> {
    const target = OFFICE_OUTPUTS[office.kind][outputFormat]!;
    const job: OfficeJob = {
      input,
      output,
      importFilter: office.importFilter,
      importOptions: office.importOptions,
      filter: target.filter,
      filterOptions: target.filterOptions,
    };
    job.filterData = this.pdfData(outputFormat, settings);
    if (outputFormat === 'csv') {
      // LibreOffice's CSV token string: separator, text quote ("), UTF-8, -, -, -, quote only when
      // needed, keep numbers as shown.
      job.filterOptions = `${CSV_DELIMITERS[settings.delimiter]},34,76,1,,0,false,true,false,false`;
    }
    await this.pool.convert(job, signal);
  }

  /** PDF export settings (PDF/A, page range); nothing for other outputs. */
  private pdfData(outputFormat: string, settings: DocumentSettings): OfficeJob['filterData'] {
    if (outputFormat !== 'pdf') return undefined;
    const range = pageRange(settings);
    return { SelectPdfVersion: PDF_VERSION_CODE[settings.pdfStandard], ...(range ? { PageRange: range } : {}) };
  }
}
