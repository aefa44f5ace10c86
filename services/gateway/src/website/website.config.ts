import { join } from 'node:path';
import { z } from 'zod';
import { envVar } from '@transmute/service-kit';

/** services/gateway/{src,dist}/website -> services/website/dist, in the repository and in the image alike. */
export const DEFAULT_WEBSITE_DIR = join(__dirname, '..', '..', '..', 'website', 'dist');

export function websiteConfig() {
  return {
    websiteDir: envVar(
      'TRANSMUTE_WEBSITE_DIR',
      z.string().min(1).default(DEFAULT_WEBSITE_DIR),
      'Folder of the built website (services/website/dist) the gateway serves at /; absent: the pages answer 404 and the API works on.',
    ),
  };
}
