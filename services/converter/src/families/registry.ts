import type { ConverterFamily } from './family';
import { ImageFamily } from './image/image.family';
import { ThreeDFamily } from './3d/three-d.family';
import { DocumentFamily } from './document/document.family';
import { VideoFamily } from './video/video.family';
import { AudioFamily } from './audio/audio.family';
import { ArchiveFamily } from './archive/archive.family';
import { archiveLimitsConfig } from './archive/archive-limits.config';
import { officePoolConfig } from './document/office-pool/office-pool.config';
import { pdfToWordConfig } from './document/pdf-to-word/pdf-to-word.config';
import { EbookFamily } from './ebook/ebook.family';
import { FontFamily } from './font/font.family';
import { loadConfig } from '@transmute/service-kit';

/** Every family this build knows, by name. Explicit: no family registers itself by side effect. */
export const FAMILIES: Record<string, () => ConverterFamily> = {
  image: () => new ImageFamily(),
  '3d': () => new ThreeDFamily(),
  document: () => new DocumentFamily(loadConfig(officePoolConfig), loadConfig(pdfToWordConfig)),
  ebook: () => new EbookFamily(),
  font: () => new FontFamily(),
  video: () => new VideoFamily(),
  audio: () => new AudioFamily(),
  archive: () => new ArchiveFamily(loadConfig(archiveLimitsConfig)),
};

export const FAMILY = Symbol('CONVERTER_FAMILY');
