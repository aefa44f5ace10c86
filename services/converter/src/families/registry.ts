import type { ConverterFamily } from './family';
import { ImageFamily } from './image/image.family';

/** Every family this build knows, by name. Explicit: no family registers itself by side effect. */
export const FAMILIES: Record<string, () => ConverterFamily> = {
  image: () => new ImageFamily(),
};

export const FAMILY = Symbol('CONVERTER_FAMILY');
