import type { FamilyProof } from './family-proof';
import { imageProof } from '../families/image/image.proof';
import { threeDProof } from '../families/3d/three-d.proof';
import { documentProof } from '../families/document/document.proof';
import { ebookProof } from '../families/ebook/ebook.proof';
import { fontProof } from '../families/font/font.proof';
import { videoProof } from '../families/video/video.proof';
import { audioProof } from '../families/audio/audio.proof';
import { archiveProof } from '../families/archive/archive.proof';

/** The proof of each family, by family name; a family without one cannot pass the matrix. */
export const PROOFS: Record<string, () => FamilyProof> = {
  image: imageProof,
  '3d': threeDProof,
  document: documentProof,
  ebook: ebookProof,
  font: fontProof,
  video: videoProof,
  audio: audioProof,
  archive: archiveProof,
};
