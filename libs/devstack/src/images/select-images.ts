import type { TransmuteImage } from './image-set';

/** Every image, or those named in a comma-separated list (names as in `transmute/<name>`). */
export function selectImages(images: TransmuteImage[], only: string | undefined): TransmuteImage[] {
  if (only === undefined) return images;
  const wanted = only.split(',').map((name) => name.trim());
  const unknown = wanted.filter((name) => !images.some((image) => image.name === name));
  if (unknown.length > 0) throw new Error(`unknown image(s) ${unknown.join(', ')}; known: ${images.map((image) => image.name).join(', ')}`);
  return images.filter((image) => wanted.includes(image.name));
}
