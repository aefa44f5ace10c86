import { create } from '@bufbuild/protobuf';
import { ConversionOptionSchema, FamilyManifestSchema } from '@transmute/contracts';
import { CatalogueIndex } from './catalogue-index';

const manifest = (family: string, pairs: [string, string][]) =>
  create(FamilyManifestSchema, {
    family,
    pairs: pairs.map(([inputFormat, outputFormat]) => ({
      inputFormat,
      outputFormat,
      options: [create(ConversionOptionSchema, { name: `${family}-quality`, type: 'number' })],
    })),
  });

describe('CatalogueIndex', () => {
  const index = new CatalogueIndex([
    manifest('image', [
      ['png', 'jpg'],
      ['png', 'webp'],
      ['jpg', 'png'],
    ]),
    manifest('document', [
      ['png', 'pdf'],
      ['docx', 'pdf'],
    ]),
    manifest('another', [['png', 'jpg']]),
  ]);

  it('lists readable formats sorted', () => {
    expect(index.inputs()).toEqual(['docx', 'jpg', 'png']);
  });

  it('lists the targets of one input across families', () => {
    expect(index.targets('png')).toEqual(['jpg', 'pdf', 'webp']);
    expect(index.targets('mp3')).toBeNull();
  });

  it('routes a pair to its one owning family: the first in the priority list, unlisted families after by name', () => {
    expect(index.family('png', 'webp')).toBe('image');
    // image is listed in the default priority, another is not.
    expect(index.family('png', 'jpg')).toBe('image');
    expect(index.family('png', 'pdf')).toBe('document');
    expect(index.family('png', 'mp3')).toBe('');
    const reordered = new CatalogueIndex([manifest('image', [['png', 'jpg']]), manifest('another', [['png', 'jpg']]), manifest('zeta', [['png', 'jpg']])], ['zeta']);
    expect(reordered.family('png', 'jpg')).toBe('zeta');
    expect(new CatalogueIndex([manifest('image', [['png', 'jpg']]), manifest('another', [['png', 'jpg']])], []).family('png', 'jpg')).toBe('another');
  });

  it('takes the options of the owning family for a shared pair', () => {
    expect(index.options('png', 'jpg')?.map((option) => option.name)).toEqual(['image-quality']);
  });

  it('lists nothing of a family that is not running: no document, no docx', () => {
    const withoutDocument = new CatalogueIndex([manifest('image', [['png', 'jpg']])]);
    expect(withoutDocument.inputs()).not.toContain('docx');
    expect(withoutDocument.targets('docx')).toBeNull();
    expect(withoutDocument.family('docx', 'pdf')).toBe('');
    expect(index.inputs()).toContain('docx');
  });

  it('gives the options of a pair, or null for an unconverted pair', () => {
    expect(index.options('docx', 'pdf')?.map((option) => option.name)).toEqual(['document-quality']);
    expect(index.options('docx', 'png')).toBeNull();
  });
});
