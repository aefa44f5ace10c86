/**
 * Which family owns a pair that more than one running family converts (pdf to
 * png by both `image` and `document`, gif to webp by `image` and `video`...):
 * the most specialised engine for what such pairs produce comes first, media
 * before office formats, packaging formats last.
 */
export const DEFAULT_FAMILY_PRIORITY = ['image', 'video', 'audio', 'document', 'ebook', 'font', 'archive', '3d'] as const;

/** A sort key: listed families by position, then the rest by name. */
export function familyRank(priority: readonly string[]): (a: string, b: string) => number {
  const position = (family: string) => {
    const index = priority.indexOf(family);
    return index === -1 ? priority.length : index;
  };
  return (a, b) => position(a) - position(b) || a.localeCompare(b);
}
