/** 16383 x 16383 (sharp's own default): a 1 GiB RGBA canvas, far above any photo, far below a decompression bomb. */
export const DEFAULT_PIXEL_LIMIT = 268_402_689;

let current = DEFAULT_PIXEL_LIMIT;

/** Set once at start-up from TRANSMUTE_MAX_INPUT_PIXELS; image decoders (sharp, ImageMagick's policy) read it. */
export function setPixelLimit(pixels: number): void {
  current = pixels;
}

export function pixelLimit(): number {
  return current;
}
