import { mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runEngine } from '../../engine/run-engine';

const TIMEOUT_MS = 60_000;
/** The pixel size of the bitmap samples' one strike. */
export const SAMPLE_STRIKE_PIXELS = 16;
/** The second font of the collection samples, which a conversion does not carry (FontForge opens the first). */
export const SECOND_FONT_NAME = 'TransmuteSecond';

/** fontTools (Debian's python3-fonttools) packs two fonts into one TrueType or OpenType collection. */
const PACK_COLLECTION = `
import sys
from fontTools.ttLib import TTCollection, TTFont
collection = TTCollection()
collection.fonts = [TTFont(path) for path in sys.argv[2:]]
collection.save(sys.argv[1])
`;

/**
 * Samples of the formats the font family reads but FontForge does not write
 * in one step, made from the sample font (`sfd`): bitmap strikes rendered by
 * FontForge (BDF, OTB) and compiled by X11's bdftopcf (PCF); collections of
 * the sample and a renamed copy packed by fontTools (TTC, OTC); EOT wrapped
 * by eot-utils' mkeot. Undefined for the formats FontForge writes directly.
 */
export async function packedSample(format: string, sfd: string, signal: AbortSignal): Promise<string | undefined> {
  const dir = dirname(sfd);
  const path = join(dir, `sample.${format}`);
  const run = (command: string, args: string[], stdoutFile?: string) => runEngine({ command, args, cwd: dir, env: { HOME: dir }, timeoutMs: TIMEOUT_MS, signal, stdoutFile });
  const fontforge = (script: string, ...paths: string[]) => run('fontforge', ['-quiet', '-lang=ff', '-c', script, ...paths]);
  const withStrike = `Open($1); BitmapsAvail([${SAMPLE_STRIKE_PIXELS}]); BitmapsRegen([${SAMPLE_STRIKE_PIXELS}]);`;
  switch (format) {
    case 'bdf': {
      const strikes = join(dir, 'bdf-strikes');
      await mkdir(strikes, { recursive: true });
      await fontforge(`${withStrike} Generate($2, "bdf")`, sfd, join(strikes, 'sample.bdf'));
      // FontForge names a strike after its size: sample-16.bdf.
      const [strike] = (await readdir(strikes)).filter((name) => name.endsWith('.bdf'));
      if (!strike) throw new Error('FontForge wrote no BDF strike');
      await rename(join(strikes, strike), path);
      return path;
    }
    case 'pcf': {
      const bdf = await packedSample('bdf', sfd, signal);
      await run('bdftopcf', ['-o', path, bdf!]);
      return path;
    }
    case 'otb':
      await fontforge(`${withStrike} Generate($2, "otb")`, sfd, path);
      return path;
    case 'ttc':
    case 'otc': {
      const member = format === 'ttc' ? 'ttf' : 'otf';
      const first = join(dir, `first.${member}`);
      const second = join(dir, `second.${member}`);
      await fontforge('Open($1); Generate($2)', sfd, first);
      await fontforge(`Open($1); SetFontNames("${SECOND_FONT_NAME}", "Transmute Second", "Transmute Second"); Generate($2)`, sfd, second);
      const script = join(dir, 'pack-collection.py');
      await writeFile(script, PACK_COLLECTION);
      await run('/usr/bin/python3', [script, path, first, second]);
      return path;
    }
    case 'eot': {
      const ttf = join(dir, 'for-eot.ttf');
      await fontforge('Open($1); Generate($2)', sfd, ttf);
      await run('mkeot', [ttf], path);
      return path;
    }
    default:
      return undefined;
  }
}
