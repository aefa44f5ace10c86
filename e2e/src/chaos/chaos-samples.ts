import { gradientPng, toneWav } from '../support/samples';

/** The four families a chaos run mixes, each with a small source made here (nothing from git) and its target. */
export const CHAOS_KINDS = ['image', 'audio', 'document', 'archive'] as const;
export type ChaosKind = (typeof CHAOS_KINDS)[number];

export interface ChaosSample {
  kind: ChaosKind;
  filename: string;
  inputFormat: string;
  outputFormat: string;
  bytes: Buffer;
}

/** A ustar archive of the given files (512-byte headers, data padded to 512, two empty blocks at the end). */
export function tarOf(files: Record<string, string>): Buffer {
  const blocks: Buffer[] = [];
  for (const [name, text] of Object.entries(files)) {
    const data = Buffer.from(text);
    const header = Buffer.alloc(512);
    header.write(name, 0, 100);
    header.write('0000644\0', 100);
    header.write('0000000\0', 108);
    header.write('0000000\0', 116);
    header.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124);
    header.write(
      `${Math.floor(Date.UTC(2026, 0, 1) / 1000)
        .toString(8)
        .padStart(11, '0')}\0`,
      136,
    );
    header.write('        ', 148); // checksum field counts as spaces while summing
    header.write('0', 156);
    header.write('ustar\0', 257);
    header.write('00', 263);
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

export async function chaosSamples(): Promise<Record<ChaosKind, ChaosSample>> {
  const png = await gradientPng(96, 64);
  const letter = Array.from({ length: 40 }, (_, line) => `Line ${line + 1} of a short letter that LibreOffice lays out on a page.`).join('\n');
  return {
    image: { kind: 'image', filename: 'chaos.png', inputFormat: 'png', outputFormat: 'jpg', bytes: png.bytes },
    audio: { kind: 'audio', filename: 'chaos.wav', inputFormat: 'wav', outputFormat: 'mp3', bytes: toneWav(1, 8_000) },
    document: { kind: 'document', filename: 'chaos.txt', inputFormat: 'txt', outputFormat: 'pdf', bytes: Buffer.from(`${letter}\n`) },
    archive: { kind: 'archive', filename: 'chaos.tar', inputFormat: 'tar', outputFormat: 'zip', bytes: tarOf({ 'a.txt': 'first file\n', 'dir/b.txt': 'second file\n' }) },
  };
}
