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
    manifest('image', [['png', 'jpg'], ['png', 'webp'], ['jpg', 'png']]),
    manifest('document', [['png', 'pdf'], ['docx', 'pdf']]),
    manifest('another', [['png', 'jpg']]),
  ]);

  it('lists readable formats sorted', () => {
    expect(index.inputs()).toEqual(['docx', 'jpg', 'png']);
  });

  it('lists the targets of one input across families', () => {
    expect(index.targets('png')).toEqual(['jpg', 'pdf', 'webp']);
    expect(index.targets('mp3')).toBeNull();
  });

  it('routes a pair to its family, the first by name when two claim it', () => {
    expect(index.family('png', 'webp')).toBe('image');
    expect(index.family('png', 'jpg')).toBe('another');
    expect(index.family('png', 'mp3')).toBe('');
  });

  it('gives the options of a pair, or null for an unconverted pair', () => {
    expect(index.options('docx', 'pdf')?.map((option) => option.name)).toEqual(['document-quality']);
    expect(index.options('docx', 'png')).toBeNull();
  });
});
