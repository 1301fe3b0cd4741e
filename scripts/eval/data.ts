/**
 * Loaders for the labelled sets in the shared data folder (see its README.md). Read-only; a
 * missing file is a `DataError` naming the path, so the CLI can stop with a clear message.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCsv } from './csv.js';

export class DataError extends Error {
  override name = 'DataError';
}

/** Paths (relative to the data folder) of every file each part reads. */
export const DATA_FILES = {
  chatsetDev: 'chatset/dev.jsonl',
  chatsetExtra: 'chatset/dev_extra.jsonl',
  wnutDev: 'wnut17/emerging.dev.conll',
  queryNerDev: 'queryner/DERIVED_queryner_dev.conll',
  clinc: 'clinc150/clinc150_train_val.json',
  tweets: 'iphonex_purchase_intent_tweets/training.csv',
  wnutTrain: 'wnut17/wnut17train.conll',
  queryNerTrain: 'queryner/DERIVED_queryner_train.conll',
  tweetNerTrain: 'tweetner7/train.txt',
  tweetNerDev: 'tweetner7/dev.txt',
  wnut16Train: 'wnut16/train.conll',
  wnut16Dev: 'wnut16/dev.conll',
  nqOpen: 'nq_open/questions.txt',
} as const;
export type DataFile = keyof typeof DATA_FILES;

export function dataPath(dir: string, file: DataFile): string {
  return join(dir, DATA_FILES[file]);
}

/**
 * The held-out part of a set that ships as one file (phone tweets, NQ-open questions): an item is
 * held out when the FNV-1a hash of its text falls in one fifth of the range. `npm run train` fits
 * on the rest and `npm run eval` reports on this part only; both call this one function.
 */
export function isHeldOut(text: string): boolean {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % 5 === 0;
}

/** One item a line, blank lines skipped (NQ-open questions). */
export function loadLines(path: string): string[] {
  return readText(path).split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
}

function readText(path: string): string {
  if (!existsSync(path)) throw new DataError(`missing data file: ${path}`);
  return readFileSync(path, 'utf8');
}

// ---------------------------------------------------------------- chat set

export interface ChatMention {
  text: string;
  start: number;
  end: number;
  kind: 'named' | 'generic';
}

export interface ChatRow {
  id: string;
  domain: string;
  participant: 'Client' | 'Wizard';
  text: string;
  mentions: ChatMention[];
  intent: number;
  purchase_intent: boolean;
}

export function loadChatset(path: string): ChatRow[] {
  const rows: ChatRow[] = [];
  readText(path)
    .split('\n')
    .forEach((line, n) => {
      if (line.trim() === '') return;
      let row: ChatRow;
      try {
        row = JSON.parse(line) as ChatRow;
      } catch (err) {
        throw new DataError(`${path}:${n + 1}: not JSON (${(err as Error).message})`);
      }
      if (typeof row.text !== 'string' || !Array.isArray(row.mentions)) {
        throw new DataError(`${path}:${n + 1}: expected "text" and "mentions"`);
      }
      for (const m of row.mentions) {
        if (row.text.slice(m.start, m.end) !== m.text) {
          throw new DataError(`${path}:${n + 1}: mention offsets do not match its text`);
        }
      }
      rows.push(row);
    });
  return rows;
}

// ---------------------------------------------------------------- CoNLL (WNUT-17, QueryNER)

export interface Token {
  text: string;
  start: number;
  end: number;
  tag: string;
}

export interface Entity {
  type: string;
  start: number;
  end: number;
  text: string;
  /** Token range [tokenStart, tokenEnd). */
  tokenStart: number;
  tokenEnd: number;
}

export interface ConllSentence {
  /** From a `# example_id = N` line, when present. */
  id: string | null;
  /** Tokens joined by single spaces. */
  text: string;
  tokens: Token[];
  entities: Entity[];
}

const COMMENT_RE = /^#\s*(\S+)\s*=\s*(.*)$/;

function entitiesOf(text: string, tokens: Token[]): Entity[] {
  const out: Entity[] = [];
  let cur: { type: string; tokenStart: number } | null = null;
  const close = (endTok: number): void => {
    if (!cur) return;
    const first = tokens[cur.tokenStart]!;
    const last = tokens[endTok - 1]!;
    out.push({ type: cur.type, start: first.start, end: last.end, text: text.slice(first.start, last.end), tokenStart: cur.tokenStart, tokenEnd: endTok });
    cur = null;
  };
  tokens.forEach((t, i) => {
    const m = /^([BI])-(.+)$/.exec(t.tag);
    if (!m) {
      close(i);
      return;
    }
    const type = m[2]!;
    // conlleval convention: I- after O or after another type starts a new entity.
    if (m[1] === 'B' || cur === null || cur.type !== type) {
      close(i);
      cur = { type, tokenStart: i };
    }
  });
  close(tokens.length);
  return out;
}

/** `token<TAB>tag` lines, sentences separated by blank (or whitespace-only) lines. */
export function parseConll(source: string): ConllSentence[] {
  const sentences: ConllSentence[] = [];
  let raw: Array<{ text: string; tag: string }> = [];
  let id: string | null = null;
  const flush = (): void => {
    if (raw.length > 0) {
      const tokens: Token[] = [];
      let pos = 0;
      for (const r of raw) {
        tokens.push({ text: r.text, start: pos, end: pos + r.text.length, tag: r.tag });
        pos += r.text.length + 1;
      }
      const text = raw.map((r) => r.text).join(' ');
      sentences.push({ id, text, tokens, entities: entitiesOf(text, tokens) });
    }
    raw = [];
    id = null;
  };
  for (const line of source.split(/\r?\n/)) {
    if (line.trim() === '') {
      flush();
      continue;
    }
    if (!line.includes('\t')) {
      const c = COMMENT_RE.exec(line);
      if (c && line.startsWith('#')) {
        if (raw.length > 0) flush();
        if (c[1] === 'example_id') id = c[2]!.trim();
        continue;
      }
    }
    const fields = line.split('\t');
    const text = fields[0] ?? '';
    const tag = (fields.length > 1 ? fields[fields.length - 1]! : 'O').trim();
    raw.push({ text, tag });
  }
  flush();
  return sentences;
}

export function loadConll(path: string): ConllSentence[] {
  return parseConll(readText(path));
}

// ---------------------------------------------------------------- CLINC150

export interface Clinc {
  train: Array<[string, string]>;
  val: Array<[string, string]>;
  oos_train: Array<[string, string]>;
  oos_val: Array<[string, string]>;
}

export function loadClinc(path: string): Clinc {
  const data = JSON.parse(readText(path)) as Partial<Clinc>;
  for (const k of ['train', 'val', 'oos_train', 'oos_val'] as const) {
    if (!Array.isArray(data[k])) throw new DataError(`${path}: key "${k}" missing`);
  }
  return data as Clinc;
}

// ---------------------------------------------------------------- phone tweets

export interface Tweet {
  /** The class column as written in the file ("PI", "no", "yes", "undefined", ...). */
  cls: string;
  text: string;
}

export function loadTweets(path: string): Tweet[] {
  const rows = parseCsv(readText(path));
  const header = rows.shift();
  if (!header || header[0]?.trim() !== 'class' || header[1]?.trim() !== 'text') {
    throw new DataError(`${path}: expected a "class,text" header`);
  }
  return rows.filter((r) => r.length >= 2).map((r) => ({ cls: r[0]!.trim(), text: r[1]! }));
}
