/**
 * The file format of the shipped linear models: a readable header (what trained it, on which
 * files, with which hashes and dev figures) and a weight table of `2^bits` rows × `classes`
 * columns, stored sparse (only rows with a non-zero weight) as base64 of
 *   [row delta: unsigned LEB128][classes × int16 little endian] ...
 * with one scale for the whole table. Decoded once, on first use, into a Float32Array: dense, or
 * only the rows the file holds with an index of rows (`slots`) when that takes less than half
 * the memory. Both give every weight the same float32 value, so scores are the same.
 */
import type { Weights } from './linear.js';
export interface ModelHeader {
  model: string;
  format: 1;
  /** The command that wrote the file. */
  command: string;
  /** Training data files (relative to the data folder) and their SHA-256. */
  data: Record<string, string>;
  /** The hand-made tables its features read and their SHA-256 (src/core/feature-tables.ts). */
  tables?: Record<string, string>;
  bits: number;
  classes: readonly string[];
  /** Figures the trainer measured on the dev splits it did not fit on. */
  dev: Record<string, number>;
  /** Anything else the model needs at inference (thresholds, calibration). */
  params: Record<string, number>;
}

export interface ModelFile {
  header: ModelHeader;
  scale: number;
  weights: string;
}

/** A decoded model file: its header and weights (./linear.ts). */
export interface LinearModel extends Weights {
  header: ModelHeader;
  table: Float32Array;
}

/** `dense`: always the whole table (the trainers, which index it directly). */
export function decodeModel(file: ModelFile, options: { dense?: boolean } = {}): LinearModel {
  const classes = file.header.classes.length;
  const rows = 2 ** file.header.bits;
  const bytes = Buffer.from(file.weights, 'base64');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Each stored row is its LEB128 delta and `classes` int16s.
  const stored: number[] = [];
  for (let pos = 0, row = -1; pos < bytes.length; pos += 2 * classes) {
    let delta = 0;
    let shift = 0;
    for (;;) {
      const b = bytes[pos++]!;
      delta += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if (b < 0x80) break;
    }
    row += delta;
    stored.push(row, pos);
  }
  const count = stored.length / 2;
  const compact = !options.dense && count * classes * 4 + rows * 4 < (rows * classes * 4) / 2;
  const table = new Float32Array((compact ? count : rows) * classes);
  const slots = compact ? new Uint32Array(rows) : undefined;
  for (let i = 0; i < count; i++) {
    const row = stored[2 * i]!;
    const at = stored[2 * i + 1]!;
    const place = slots ? i : row;
    if (slots) slots[row] = i + 1;
    for (let c = 0; c < classes; c++) table[place * classes + c] = view.getInt16(at + 2 * c, true) * file.scale;
  }
  return { header: file.header, table, mask: rows - 1, classes, ...(slots ? { slots } : {}) };
}

/** The weights of a decoded model, without its header (the compact index kept when there is one). */
export function weightsOfModel(m: LinearModel): Weights {
  return { table: m.table, mask: m.mask, classes: m.classes, ...(m.slots ? { slots: m.slots } : {}) };
}

/** The inverse of `decodeModel`, for the trainer: weights with |w| < `floor` are dropped. */
export function encodeModel(header: ModelHeader, table: Float64Array | Float32Array, floor: number): ModelFile {
  const classes = header.classes.length;
  let max = 0;
  for (const w of table) max = Math.max(max, Math.abs(w));
  const scale = max > 0 ? max / 32767 : 1;
  const out: number[] = [];
  let last = -1;
  const rows = table.length / classes;
  for (let r = 0; r < rows; r++) {
    let keep = false;
    for (let c = 0; c < classes; c++) if (Math.abs(table[r * classes + c]!) >= floor) keep = true;
    if (!keep) continue;
    let delta = r - last;
    last = r;
    while (delta >= 0x80) {
      out.push((delta & 0x7f) | 0x80);
      delta = Math.floor(delta / 128);
    }
    out.push(delta);
    for (let c = 0; c < classes; c++) {
      const q = Math.max(-32767, Math.min(32767, Math.round(table[r * classes + c]! / scale)));
      out.push(q & 0xff, (q >> 8) & 0xff);
    }
  }
  return { header, scale, weights: Buffer.from(out).toString('base64') };
}
