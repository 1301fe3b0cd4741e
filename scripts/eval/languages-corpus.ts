/**
 * The written corpora of the languages other than English (data/languages/<lang>, see its
 * README): messages, replies, crises and look-alikes in German, French, Spanish and Italian, each
 * line with its mentions (resolved here to offsets: the first occurrence at word boundaries after
 * the previous mention's start), purchase intent (null for a reply) and floor label. The split of
 * a line is its group's, from the folder's splits.json. Rows are ChatRows, so the chat set's
 * scoring reads them as they are.
 *
 * Run as a script to check the files: `npx tsx scripts/eval/languages-corpus.ts`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ChatMention, ChatRow } from './data.js';
import { occurrences } from './replies-data.js';
import type { FloorTopic } from '../../src/core/safety/topics.js';

export const CORPUS_LANGUAGES = ['de', 'fr', 'es', 'it'] as const;
export type CorpusLanguage = (typeof CORPUS_LANGUAGES)[number];
export type CorpusSplit = 'train' | 'dev' | 'test';
export const CORPUS_KINDS = ['question', 'command', 'reply', 'chat', 'lookalike', 'crisis', 'crisis_lookalike'] as const;

export interface CorpusLine extends ChatRow {
  language: CorpusLanguage;
  group: string;
  kind: (typeof CORPUS_KINDS)[number];
  split: CorpusSplit;
  /** null for an assistant's reply (`participant: "Wizard"`). */
  line_intent: number | null;
  floor: FloorTopic | null;
}

interface RawLine {
  id: string;
  group: string;
  kind: string;
  text: string;
  mentions: { text: string; kind: 'named' | 'generic' }[];
  intent: number | null;
  floor: FloorTopic | null;
}

export const LANGUAGES_DIR = new URL('../../data/languages/', import.meta.url);

/**
 * Labelled mentions as offsets in `text`: each at its first occurrence at word boundaries from the
 * previous mention's start (else the first anywhere). One not in the text so goes to `errors`,
 * as `where: "…"`, for the loader to throw on.
 */
export function placeMentions(text: string, mentions: readonly { text: string; kind: 'named' | 'generic' }[], where: string, errors: string[]): ChatMention[] {
  let from = 0;
  return mentions.map((m) => {
    const at = occurrences(text, m.text).find((i) => i >= from) ?? occurrences(text, m.text)[0];
    if (at === undefined) {
      errors.push(`${where}: "${m.text}" is not in the text at word boundaries`);
      return { text: m.text, start: 0, end: 0, kind: m.kind };
    }
    from = at;
    return { text: m.text, start: at, end: at + m.text.length, kind: m.kind };
  });
}

export function corpusDir(language: CorpusLanguage): URL {
  return new URL(`${language}/`, LANGUAGES_DIR);
}

const cache = new Map<CorpusLanguage, CorpusLine[]>();

/** Every line of a language's corpus, in file and line order; throws on a malformed line. */
export function loadCorpus(language: CorpusLanguage): CorpusLine[] {
  const kept = cache.get(language);
  if (kept) return kept;
  const dir = corpusDir(language);
  const splits = JSON.parse(readFileSync(new URL('splits.json', dir), 'utf8')) as Record<string, CorpusSplit>;
  const out: CorpusLine[] = [];
  const errors: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()) {
    readFileSync(new URL(file, dir), 'utf8').split('\n').forEach((text, n) => {
      if (!text.trim()) return;
      const raw = JSON.parse(text) as RawLine;
      const where = `${language}/${file}:${n + 1}`;
      const split = splits[raw.group];
      if (!split) errors.push(`${where}: group ${raw.group} has no split`);
      if (!(CORPUS_KINDS as readonly string[]).includes(raw.kind)) errors.push(`${where}: kind ${raw.kind}`);
      const mentions = placeMentions(raw.text, raw.mentions, where, errors);
      const reply = raw.kind === 'reply';
      out.push({
        id: raw.id,
        domain: raw.kind,
        participant: reply ? 'Wizard' : 'Client',
        text: raw.text,
        mentions,
        intent: raw.intent ?? 0,
        purchase_intent: (raw.intent ?? 0) >= 0.5,
        language,
        group: raw.group,
        kind: raw.kind as CorpusLine['kind'],
        split: split ?? 'test',
        line_intent: raw.intent,
        floor: raw.floor,
      });
    });
  }
  if (errors.length > 0) throw new Error(`data/languages: ${errors.length} problems\n${errors.slice(0, 20).join('\n')}`);
  cache.set(language, out);
  return out;
}

/**
 * The safety floor's extra training lines (data/languages-floor/<lang>.jsonl and, when present,
 * <lang>.<part>.jsonl: indirect crises and their look-alikes; see its READMEs): crises, their
 * look-alikes and everyday lines, written for training only (every line `train`, its own group).
 * As corpus lines with no mentions and no intent.
 */
export const FLOOR_DIR = new URL('../../data/languages-floor/', import.meta.url);

/**
 * A language's files in a folder of written lines: `<lang>.jsonl`, then `<lang>.<part>.jsonl`
 * (later batches: `de.more.jsonl`, `de.hard.jsonl`) in name order.
 */
function languageFiles(dir: URL, language: CorpusLanguage): URL[] {
  if (!existsSync(dir)) return [];
  const parts = readdirSync(dir).filter((f) => f.startsWith(`${language}.`) && f.endsWith('.jsonl') && f !== `${language}.jsonl`).sort();
  return [`${language}.jsonl`, ...parts].map((f) => new URL(f, dir)).filter((u) => existsSync(u));
}

/** The floor's training files of a language that exist, in order. */
export function floorFiles(language: CorpusLanguage): URL[] {
  return languageFiles(FLOOR_DIR, language);
}

export function loadFloorLines(language: CorpusLanguage): CorpusLine[] {
  return floorFiles(language).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((t) => t.trim())
      .map((t): CorpusLine => {
        // `source`: the English line a translated line was written from (<lang>.translated.jsonl).
        const raw = JSON.parse(t) as { id: string; source?: string; kind: string; floor: FloorTopic | null; text: string };
        return {
          id: raw.id,
          domain: raw.kind,
          participant: 'Client',
          text: raw.text,
          mentions: [],
          intent: 0,
          purchase_intent: false,
          language,
          // Translations of one English line share a group in every language, so that a pooled
          // fit never learns a line in one language and is judged on it in another.
          group: raw.source ? `en-tr-${raw.source}` : raw.id,
          kind: (raw.kind === 'everyday' ? 'chat' : raw.kind) as CorpusLine['kind'],
          split: 'train',
          line_intent: null,
          floor: raw.floor,
        };
      }),
  );
}

/**
 * Extra written training lines with mentions and intent, for training only (every line `train`,
 * its own group; see each folder's README): the English written requests adapted to each
 * language (data/languages-requests/<lang>.jsonl: the train split of data/requests) and more
 * lines written in the language (data/languages-more/<lang>[.<part>].jsonl: buying questions with varied
 * product mentions, chat about goods one has, look-alikes). Files that are absent give nothing.
 */
export const REQUESTS_DIR = new URL('../../data/languages-requests/', import.meta.url);
export const MORE_DIR = new URL('../../data/languages-more/', import.meta.url);

const KIND_OF_REQUEST: Readonly<Record<string, CorpusLine['kind']>> = { question: 'question', command: 'command', chat: 'chat', lookalike: 'lookalike', 'negative-chat': 'chat' };

/** The extra training files of a language that exist, in order. */
export function extraFiles(language: CorpusLanguage): URL[] {
  return [...languageFiles(REQUESTS_DIR, language), ...languageFiles(MORE_DIR, language)];
}

export function loadExtraLines(language: CorpusLanguage): CorpusLine[] {
  const errors: string[] = [];
  const out = extraFiles(language).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((t) => t.trim())
      .map((t): CorpusLine => {
        const raw = JSON.parse(t) as { id: string; kind: string; text: string; mentions: RawLine['mentions']; intent: number };
        const mentions = placeMentions(raw.text, raw.mentions, raw.id, errors);
        const kind = KIND_OF_REQUEST[raw.kind] ?? (raw.kind.startsWith('negative-') ? 'lookalike' : 'command');
        return { id: raw.id, domain: kind, participant: 'Client', text: raw.text, mentions, intent: raw.intent, purchase_intent: raw.intent >= 0.5, language, group: raw.id, kind, split: 'train', line_intent: raw.intent, floor: null };
      }),
  );
  if (errors.length > 0) throw new Error(`${language} extra training lines: ${errors.length} problems\n${errors.slice(0, 20).join('\n')}`);
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const l of CORPUS_LANGUAGES) {
    const rows = loadCorpus(l);
    const by = (s: CorpusSplit) => rows.filter((r) => r.split === s).length;
    process.stdout.write(`${l}: ${rows.length} lines (train ${by('train')}, dev ${by('dev')}, test ${by('test')}), ${rows.reduce((n, r) => n + r.mentions.length, 0)} mentions\n`);
  }
}
