/**
 * The written purchase-request corpus (data/requests, see its README): short user messages that
 * order, re-order, put in a cart or ask to buy goods, and the messages that look like them but buy
 * no goods (a table booked, a pizza delivered, "order of operations", a news outlet, an app), with
 * their product mentions (named / generic) and a purchase-intent value on the chat set's scale.
 * Mentions are given by their text; this file resolves them to offsets, so the writers never
 * count characters. Split by group (one writer's voice and its variants): a group's lines are all
 * in one split, chosen from a hash of its name (6 train : 2 dev : 2 test). The written shopping
 * chats (data/dialogues) share the format, a dialogue being the group and each turn saying who speaks.
 *
 * Run as a script to check files: `npx tsx scripts/eval/requests-data.ts [file.jsonl ...]`.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ChatRow } from './data.js';
import { occurrences } from './replies-data.js';

export type RequestSplit = 'train' | 'dev' | 'test';
/** The chat set's intent scale. */
const INTENTS = [0, 0.1, 0.4, 0.7, 1];

export interface RequestRow {
  id: string;
  /** One voice and its variants: the unit of the split (a dialogue's lines: `dialogue`). */
  group?: string;
  dialogue?: string;
  /** What the line is: an order, a re-order ... or a look-alike that buys no goods ("negative-..."); a dialogue's turns: "dialogue". */
  kind?: string;
  /** Who speaks in a written dialogue; a request line is the customer's. */
  participant?: 'Client' | 'Wizard';
  domain?: string;
  text: string;
  mentions: { text: string; kind: 'named' | 'generic'; nth?: number }[];
  intent: number;
}

/** A line as the chat set's readers take it, with its split and kind. */
export interface Request extends ChatRow {
  split: RequestSplit;
  kind: string;
  group: string;
}

export const REQUEST_DIR = new URL('../../data/requests/', import.meta.url);
/** The written shopping chats (data/dialogues): a customer and a shop assistant, in the same format. */
export const DIALOGUE_DIR = new URL('../../data/dialogues/', import.meta.url);

export function splitOf(group: string): RequestSplit {
  const b = createHash('sha256').update(group).digest()[0]! % 10;
  return b < 6 ? 'train' : b < 8 ? 'dev' : 'test';
}

export function readRequestFile(path: string | URL, errors: string[]): Request[] {
  const file = String(path).split('/').pop()!;
  const out: Request[] = [];
  readFileSync(path, 'utf8').split('\n').forEach((line, n) => {
    if (!line.trim()) return;
    const where = `${file}:${n + 1}`;
    let row: RequestRow;
    try {
      row = JSON.parse(line) as RequestRow;
    } catch {
      errors.push(`${where}: not JSON`);
      return;
    }
    row.group ??= row.dialogue;
    row.kind ??= row.dialogue === undefined ? undefined : 'dialogue';
    row.participant ??= 'Client';
    for (const k of ['id', 'group', 'kind', 'text'] as const) if (typeof row[k] !== 'string' || !row[k]) errors.push(`${where}: missing ${k}`);
    if (!INTENTS.includes(row.intent)) errors.push(`${where}: intent must be one of ${INTENTS.join(', ')}`);
    if (row.participant !== 'Client' && row.participant !== 'Wizard') errors.push(`${where}: participant must be Client or Wizard`);
    // the chat set's rule: the assistant is not the buyer
    if (row.participant === 'Wizard' && row.intent > 0.4) errors.push(`${where}: a Wizard turn above 0.4`);
    if (!Array.isArray(row.mentions)) row.mentions = [];
    const mentions: ChatRow['mentions'] = [];
    for (const m of row.mentions) {
      if (m.kind !== 'named' && m.kind !== 'generic') errors.push(`${where}: "${m.text}" needs kind named|generic`);
      const at = occurrences(row.text ?? '', m.text);
      const start = at[m.nth ?? 0];
      if (start === undefined) errors.push(`${where}: "${m.text}" not found (at word boundaries)${m.nth ? ` ${m.nth + 1} times` : ''}`);
      else mentions.push({ text: m.text, start, end: start + m.text.length, kind: m.kind });
    }
    mentions.sort((a, b) => a.start - b.start);
    if (mentions.some((m, i) => i > 0 && m.start < mentions[i - 1]!.end)) errors.push(`${where}: mentions overlap`);
    if (row.intent === 0 && mentions.length > 0) errors.push(`${where}: intent 0 with a mention (the chat set's rule: a mention is ≥ 0.1)`);
    out.push({
      id: row.id,
      domain: row.domain ?? row.group!,
      participant: row.participant,
      text: row.text,
      mentions,
      intent: row.intent,
      purchase_intent: row.intent >= 0.5,
      split: splitOf(row.group!),
      kind: row.kind!,
      group: row.group!,
    });
  });
  return out;
}

/** Every line of a written corpus; throws on the first problem so a broken file never trains a model. */
export function loadRequests(dir: URL = REQUEST_DIR): Request[] {
  const errors: string[] = [];
  const out = readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .flatMap((f) => readRequestFile(new URL(f, dir), errors));
  const ids = new Set<string>();
  for (const r of out) {
    if (ids.has(r.id)) errors.push(`duplicate id ${r.id}`);
    ids.add(r.id);
  }
  if (errors.length) throw new Error(`data/requests: ${errors.length} problems, first: ${errors.slice(0, 5).join('; ')}`);
  return out;
}

/** Every turn of the written dialogues, in file and dialogue order. */
export const loadDialogues = (): Request[] => loadRequests(DIALOGUE_DIR);

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const files = process.argv.slice(2);
  const paths = files.length ? files : readdirSync(REQUEST_DIR).filter((f) => f.endsWith('.jsonl')).map((f) => fileURLToPath(new URL(f, REQUEST_DIR)));
  const errors: string[] = [];
  const rows = paths.flatMap((p) => readRequestFile(p, errors));
  const by = (f: (r: Request) => string) => Object.entries(rows.reduce<Record<string, number>>((m, r) => ((m[f(r)] = (m[f(r)] ?? 0) + 1), m), {}));
  process.stdout.write(`${rows.length} lines in ${new Set(rows.map((r) => r.group)).size} groups; mentions ${rows.reduce((s, r) => s + r.mentions.length, 0)}\n`);
  process.stdout.write(`splits ${JSON.stringify(Object.fromEntries(by((r) => r.split)))}; kinds ${JSON.stringify(Object.fromEntries(by((r) => r.kind)))}\n`);
  for (const e of errors) process.stdout.write(`ERROR ${e}\n`);
  process.exitCode = errors.length ? 1 : 0;
}
