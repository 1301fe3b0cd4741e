/**
 * What every trainer shares: where the data and the models are, the data files' hashes for a
 * model's header, the shipped form of a table (pruned, quantised), and writing a model file.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeModel, encodeModel, type ModelHeader } from '../../src/core/model/weights.js';
import { DATA_FILES, type DataFile } from '../eval/data.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const COMMAND = 'npm run train';

/** The shared data folder, and a data file's path in it. */
export interface DataDir {
  dir: string;
  path: (f: DataFile) => string;
}

export function dataDir(dir: string): DataDir {
  return { dir, path: (f) => resolve(dir, DATA_FILES[f]) };
}

export const log = (m: string): void => void process.stderr.write(`[train] ${m}\n`);
export const r3 = (x: number): number => Math.round(x * 1000) / 1000;

export function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** Data files (relative to the data folder) → SHA-256, for a model's header. */
export function hashes(data: DataDir, files: readonly DataFile[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of files) out[DATA_FILES[f]] = sha256File(data.path(f));
  return out;
}

/** The files of a corpus in this repository (data/<name>/: its .jsonl files and splits.json) → SHA-256, for a model's header. */
export function corpusHashes(dir: URL): Record<string, string> {
  const name = fileURLToPath(dir).replace(/\/$/, '').split('/').pop()!;
  const files = readdirSync(dir).filter((f) => f.endsWith('.jsonl') || f === 'splits.json').sort();
  return Object.fromEntries(files.map((f) => [`data/${name}/${f}`, sha256File(fileURLToPath(new URL(f, dir)))]));
}

/** Encodes a table as shipped (pruned at `floor`, quantised) and decodes it back, dense. */
export function asShipped(classes: readonly string[], bits: number, table: Float64Array, floor: number): Float32Array {
  const header: ModelHeader = { model: '', format: 1, command: '', data: {}, bits, classes, dev: {}, params: {} };
  return decodeModel(encodeModel(header, table, floor), { dense: true }).table;
}

/** What a linear model's trainer hands the orchestrator. */
export interface TrainedModel {
  file: string;
  header: ModelHeader;
  table: Float64Array;
  /** Weights smaller than this are not shipped. */
  floor: number;
}

export function writeModel({ file, header, table, floor }: TrainedModel): void {
  const model = encodeModel(header, table, floor);
  // The header first and readable, the weights on a line of their own.
  const text = `{"header": ${JSON.stringify(header, null, 1)},\n"scale": ${model.scale},\n"weights": "${model.weights}"}\n`;
  mkdirSync(dirname(resolve(ROOT, file)), { recursive: true });
  writeFileSync(resolve(ROOT, file), text);
  log(`wrote ${file} (${(text.length / 1024).toFixed(0)} KiB)`);
}
