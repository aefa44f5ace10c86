/**
 * Font formats FontForge reads and writes (woff2 through Google's
 * woff2_compress/woff2_decompress when the other side is TrueType), by
 * extension. `afm` (metrics only) is written, never read: it holds no glyphs.
 * Not listed: `.cff` (FontForge wraps it in a PostScript FontSet, not bare CFF).
 */

/**
 * TrueType and OpenType collections: FontForge opens the first font of the
 * collection, so the others are not converted (docs/decisions.md). EOT
 * (Embedded OpenType) is unwrapped to TrueType by `eot2ttf` first.
 */
export const COLLECTION_INPUTS = ['ttc', 'otc'] as const;
export const FONT_INPUTS = ['ttf', 'otf', 'woff', 'woff2', 'sfd', 'svg', 'pfb', 'pfa', 'pt3', 't42', 'dfont', ...COLLECTION_INPUTS, 'eot'] as const;
export const FONT_OUTPUTS = ['ttf', 'otf', 'woff', 'woff2', 'sfd', 'svg', 'pfb', 'pfa', 'pt3', 't42', 'dfont', 'afm'] as const;

/** What a pair loses by the nature of its formats: AFM holds metrics, and FontForge drops a Type 3 font's empty glyphs. */
export function fontPairNote(input: string, output: string): string | undefined {
  const notes: string[] = [];
  if (input === 'pt3') notes.push('characters without an outline (the space) are dropped');
  if (output === 'afm') notes.push('metrics only: no outlines');
  return notes.length > 0 ? notes.join('; ') : undefined;
}
