/**
 * Audio formats ffmpeg does not read, which SoX (Debian `sox`, with
 * `libsox-fmt-all`) decodes: samplers, voice recorders and workstation
 * formats, by extension. `type` is SoX's name for it; `sample` is the rate and
 * layout the proof writes a sample in (several formats fix both). Headerless
 * ones (cdda, sln, vox, cvsd) carry their rate and layout by definition, and
 * SoX reads them that way.
 */
export interface SoxInput {
  type: string;
  sample: { rate: number; channels: number };
  /** Targets the matrix showed cannot take this format's content, left out of its pairs. */
  notTo?: readonly string[];
}

const sox = (type: string, rate: number, channels = 1, notTo?: readonly string[]): SoxInput => ({ type, sample: { rate, channels }, notTo });

export const SOX_INPUTS: Record<string, SoxInput> = {
  // Amiga IFF 8SVX and MAUD.
  '8svx': sox('8svx', 16000),
  maud: sox('maud', 22050, 2),
  // Ambisonic B-format (WAVE_FORMAT_EXTENSIBLE with the B-format GUID): four channels, which
  // ffmpeg's Opus encoder refuses without a mapping family (opus, and mka whose default codec is Opus).
  amb: sox('amb', 44100, 4, ['opus', 'mka']),
  // Atari Audio Visual Research; Mac HCOM; Sounder and SoundTool (DOS).
  avr: sox('avr', 22050),
  hcom: sox('hcom', 22050),
  sndr: sox('sndr', 8000),
  sndt: sox('sndt', 11025),
  // CVSD (MIL-STD-188-113), with and without a header.
  dvms: sox('dvms', 8000),
  vms: sox('vms', 8000),
  cvsd: sox('cvsd', 8000),
  cvs: sox('cvs', 8000),
  // Telephony and voice recorders.
  gsrt: sox('gsrt', 8000),
  pvf: sox('pvf', 8000),
  prc: sox('prc', 8000),
  wve: sox('wve', 8000),
  sln: sox('sln', 8000),
  vox: sox('vox', 8000),
  // Headerless IMA ADPCM, 8 kHz mono as SoX reads it.
  ima: sox('ima', 8000),
  // Speech research: HTK and NIST SPHERE.
  htk: sox('htk', 16000),
  nist: sox('nist', 16000),
  sph: sox('sph', 16000),
  // Ensoniq PARIS (big- and little-endian), SampleVision, Yamaha TX-16W.
  paf: sox('paf', 44100, 2),
  fap: sox('fap', 44100, 2),
  smp: sox('smp', 22050),
  txw: sox('txw', 33333),
  // Audio CD tracks (44.1 kHz stereo 16-bit, headerless) and SoX's text dump.
  cdda: sox('cdda', 44100, 2),
  cdr: sox('cdr', 44100, 2),
  dat: sox('dat', 8000),
};
