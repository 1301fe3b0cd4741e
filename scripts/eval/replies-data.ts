/**
 * The written reply corpus (data/replies, see its README): assistant replies with their product
 * mentions labelled recommended / advised against / not for sale here. Spans are given by their
 * text; this file finds every occurrence (at word boundaries) and resolves them to offsets, so the
 * writers never count characters. Split by domain: a domain's replies are all in one split.
 *
 * Run as a script to check files: `npx tsx scripts/eval/replies-data.ts [file.jsonl ...]`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type ReplyLabel = 'recommended' | 'advised_against' | 'not_for_sale_here';
export type ReplySplit = 'train' | 'dev' | 'test';
export const NOT_FOR_SALE_WHY = ['own', 'tool', 'ingredient', 'place', 'work', 'service', 'other'] as const;

/** A span as written in the file. */
export interface WrittenSpan {
  text: string;
  label: ReplyLabel;
  /** recommended / advised_against: a named product ("Anker 555") or a product type ("USB-C hub"). */
  kind?: 'named' | 'generic';
  /** not_for_sale_here: why. */
  why?: (typeof NOT_FOR_SALE_WHY)[number];
  /** A shorter later reference to a named product ("the 555" → "Anker 555 USB-C Hub"). */
  alias_of?: string;
  /** Only this occurrence (0-based) of the text; default every occurrence. */
  nth?: number;
}

export interface ReplyRow {
  id: string;
  domain: string;
  style: string;
  question: string;
  reply: string;
  spans: WrittenSpan[];
}

/** A span resolved to offsets in the reply. */
export interface ReplySpan {
  start: number;
  end: number;
  text: string;
  label: ReplyLabel;
  kind?: 'named' | 'generic';
  why?: string;
  /** Which product this names: the full name of a named product (its own text, or alias_of). */
  product: string;
}

export interface Reply extends Omit<ReplyRow, 'spans'> {
  file: string;
  split: ReplySplit;
  spans: ReplySpan[];
}

export const REPLY_DIR = new URL('../../data/replies/', import.meta.url);

const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** Every occurrence of `text` in `reply` that starts and ends at a word boundary. */
export function occurrences(reply: string, text: string): number[] {
  const out: number[] = [];
  for (let i = reply.indexOf(text); i >= 0; i = reply.indexOf(text, i + 1)) {
    const edgeL = !isWordChar(text[0]) || !isWordChar(reply[i - 1]);
    const edgeR = !isWordChar(text[text.length - 1]) || !isWordChar(reply[i + text.length]);
    if (edgeL && edgeR) out.push(i);
  }
  return out;
}

/** Resolves one row's spans; problems go to `errors`. A span inside a longer labelled one yields to it. */
export function resolveSpans(row: ReplyRow, errors: string[]): ReplySpan[] {
  const all: ReplySpan[] = [];
  const where = `${row.id}`;
  for (const s of row.spans) {
    if (!['recommended', 'advised_against', 'not_for_sale_here'].includes(s.label)) errors.push(`${where}: bad label ${s.label}`);
    if (s.label !== 'not_for_sale_here' && s.kind !== 'named' && s.kind !== 'generic') errors.push(`${where}: "${s.text}" needs kind named|generic`);
    if (s.label === 'not_for_sale_here' && !NOT_FOR_SALE_WHY.includes(s.why as never)) errors.push(`${where}: "${s.text}" needs why (${NOT_FOR_SALE_WHY.join('|')})`);
    if (s.text !== s.text.trim() || /^[*_"“”'`]|[*_"“”'`]$/.test(s.text)) errors.push(`${where}: "${s.text}" has markup or spaces at its edges`);
    if (s.alias_of !== undefined && !row.spans.some((o) => o.text === s.alias_of)) errors.push(`${where}: alias_of "${s.alias_of}" is not a span`);
    const at = occurrences(row.reply, s.text);
    if (at.length === 0) errors.push(`${where}: "${s.text}" not found in the reply (at word boundaries)`);
    const picked = s.nth === undefined ? at : at[s.nth] === undefined ? [] : [at[s.nth]!];
    if (s.nth !== undefined && picked.length === 0) errors.push(`${where}: "${s.text}" has no occurrence ${s.nth}`);
    for (const start of picked) {
      all.push({ start, end: start + s.text.length, text: s.text, label: s.label, kind: s.kind, why: s.why, product: s.alias_of ?? s.text });
    }
  }
  // Longest first: a span inside a longer one yields to it; a partial overlap is an error.
  all.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: ReplySpan[] = [];
  for (const s of all) {
    const clash = kept.find((k) => s.start < k.end && k.start < s.end);
    if (!clash) kept.push(s);
    else if (!(clash.start <= s.start && s.end <= clash.end)) errors.push(`${where}: "${s.text}" partly overlaps "${clash.text}"`);
  }
  return kept.sort((a, b) => a.start - b.start);
}

/** Domain → split; written in data/replies/splits.json. Domains not listed are an error. */
export function loadSplits(dir: URL = REPLY_DIR): Record<string, ReplySplit> {
  return JSON.parse(readFileSync(new URL('splits.json', dir), 'utf8')) as Record<string, ReplySplit>;
}

/** One file's replies; `splits` maps each domain to its split, or is the split of every reply (a check set's). */
export function readReplyFile(path: string | URL, splits: Record<string, ReplySplit> | ReplySplit, errors: string[]): Reply[] {
  const file = String(path).split('/').pop()!;
  const out: Reply[] = [];
  readFileSync(path, 'utf8').split('\n').forEach((line, n) => {
    if (!line.trim()) return;
    let row: ReplyRow;
    try {
      row = JSON.parse(line) as ReplyRow;
    } catch {
      errors.push(`${file}:${n + 1}: not JSON`);
      return;
    }
    for (const k of ['id', 'domain', 'style', 'question', 'reply'] as const) {
      if (typeof row[k] !== 'string' || !row[k]) errors.push(`${file}:${n + 1}: missing ${k}`);
    }
    if (!Array.isArray(row.spans)) row.spans = [];
    const split = typeof splits === 'string' ? splits : splits[row.domain];
    if (!split) errors.push(`${file}:${n + 1}: domain "${row.domain}" is not in splits.json`);
    out.push({ ...row, file, split: split ?? 'train', spans: resolveSpans(row, errors) });
  });
  return out;
}

/** Every reply in the corpus; throws on the first problem so a broken file never trains a model. */
export function loadReplies(dir: URL = REPLY_DIR): Reply[] {
  const splits = loadSplits(dir);
  const errors: string[] = [];
  const out = readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .flatMap((f) => readReplyFile(new URL(f, dir), splits, errors));
  const ids = new Set<string>();
  for (const r of out) {
    if (ids.has(r.id)) errors.push(`duplicate id ${r.id}`);
    ids.add(r.id);
  }
  if (errors.length) throw new Error(`data/replies: ${errors.length} problems, first: ${errors.slice(0, 5).join('; ')}`);
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const splits = loadSplits();
  const files = process.argv.slice(2);
  const paths = files.length ? files : readdirSync(REPLY_DIR).filter((f) => f.endsWith('.jsonl')).map((f) => fileURLToPath(new URL(f, REPLY_DIR)));
  const errors: string[] = [];
  const rows = paths.flatMap((p) => readReplyFile(p, splits, errors));
  const count = (f: (r: Reply) => boolean) => rows.filter(f).length;
  const recommends = (r: Reply) => r.spans.some((s) => s.label === 'recommended');
  process.stdout.write(
    `${rows.length} replies: ${count(recommends)} recommend something, ${count((r) => !recommends(r))} recommend nothing; ` +
      `${new Set(rows.map((r) => r.domain)).size} domains; spans ${rows.reduce((s, r) => s + r.spans.length, 0)}\n`,
  );
  for (const e of errors) process.stdout.write(`ERROR ${e}\n`);
  process.exitCode = errors.length ? 1 : 0;
}
