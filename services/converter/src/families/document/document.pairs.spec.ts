import { EbookFamily } from '../ebook/ebook.family';
import { FontFamily } from '../font/font.family';
import { DocumentFamily } from './document.family';

/** Manifest shape of the document, ebook and font families (no engine needed). */
describe('document, ebook and font manifests', () => {
  const families = [new DocumentFamily({ size: 1, maxConversions: 1, timeoutMs: 1_000, python: '/usr/bin/python3', soffice: 'soffice' }), new EbookFamily(), new FontFamily()];
  const keys = (family: (typeof families)[number]) => family.pairs().map((pair) => `${pair.inputFormat}->${pair.outputFormat}`);

  it('lists each pair once, in one family only, never a format to itself', () => {
    const all = families.flatMap(keys);
    expect(new Set(all).size).toBe(all.length);
    expect(all.filter((key) => key.split('->')[0] === key.split('->')[1])).toEqual([]);
  });

  it('uses lowercase extensions and declares options with the spec fields', () => {
    for (const family of families) {
      for (const pair of family.pairs()) {
        expect(pair.inputFormat).toMatch(/^[a-z0-9]+$/);
        expect(pair.outputFormat).toMatch(/^[a-z0-9]+$/);
        for (const option of pair.options) {
          expect(['checkbox', 'number', 'select', 'radio', 'range']).toContain(option.type);
          expect(option.label).not.toBe('');
          if (option.type === 'select') expect(option.values.length).toBeGreaterThan(1);
        }
      }
    }
  });

  it('reads at least 60 document formats', () => {
    expect(new Set(families[0]!.pairs().map((pair) => pair.inputFormat)).size).toBeGreaterThanOrEqual(60);
  });

  it('offers PDF/A and a page range on every PDF output of an office document', () => {
    const docxToPdf = families[0]!.pairs().find((pair) => pair.inputFormat === 'docx' && pair.outputFormat === 'pdf')!;
    expect(docxToPdf.options.map((option) => option.name)).toEqual(['page_from', 'page_to', 'pdf_standard']);
  });
});
