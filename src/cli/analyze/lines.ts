/**
 * `chatads analyze` input: JSON Lines read as a stream (a 1 GB file is never held in memory),
 * each line turned into a request or the API's error for it. A line starting with `{` is a
 * request object; any other non-empty line is a plain message. Blank lines are skipped but
 * still counted, so `line` numbers match the file.
 */
import type { Readable } from 'node:stream';
import type { ChatAdsFailure } from '../../core/errors.js';
import type { AnalyzeRequest } from '../../core/types.js';

export interface InputLine {
  /** 1-based line number in the input. */
  line: number;
  /** The line's text, or null when it was longer than the limit (never buffered whole). */
  text: string | null;
}

export type ParsedLine = { line: number; request: AnalyzeRequest } | { line: number; failure: Pick<ChatAdsFailure, 'code' | 'message'> };

/**
 * The non-blank lines of `input`, in order. A line over `maxBytes` is reported with `text: null`
 * and skipped to its end without being kept. `onBytes` hears how many bytes were read.
 */
export async function* readLines(input: Readable, maxBytes: number, onBytes?: (bytes: number) => void): AsyncGenerator<InputLine> {
  let pending = '';
  let oversize = false;
  let line = 0;
  const decoder = new TextDecoder('utf-8');
  const finish = (text: string): InputLine | null => {
    line++;
    if (oversize) {
      oversize = false;
      return { line, text: null };
    }
    const trimmed = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (trimmed.trim() === '') return null;
    return { line, text: Buffer.byteLength(trimmed) > maxBytes ? null : trimmed };
  };
  for await (const chunk of input) {
    const bytes = chunk as Buffer;
    onBytes?.(bytes.length);
    let text = decoder.decode(bytes, { stream: true });
    let newline = text.indexOf('\n');
    while (newline >= 0) {
      const out = finish(oversize ? '' : pending + text.slice(0, newline));
      pending = '';
      if (out) yield out;
      text = text.slice(newline + 1);
      newline = text.indexOf('\n');
    }
    if (!oversize) {
      pending += text;
      // Characters ≤ bytes: past the limit in characters is past it in bytes; drop what we hold.
      if (pending.length > maxBytes) {
        oversize = true;
        pending = '';
      }
    }
  }
  const rest = pending + decoder.decode();
  if (rest !== '' || oversize) {
    const out = finish(oversize ? '' : rest);
    if (out) yield out;
  }
}

/** A line as a request: the options' defaults under the line's own fields. */
export function parseLine(input: InputLine, defaults: Partial<AnalyzeRequest>, maxBytes: number): ParsedLine {
  const { line, text } = input;
  if (text === null) return { line, failure: { code: 'PAYLOAD_TOO_LARGE', message: `The line is larger than ${maxBytes} bytes.` } };
  if (!text.trimStart().startsWith('{')) return { line, request: { ...defaults, message: text } as AnalyzeRequest };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { line, failure: { code: 'INVALID_JSON', message: 'The line starts with "{" but is not valid JSON.' } };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { line, failure: { code: 'INVALID_REQUEST', message: 'The line must be a JSON object.' } };
  }
  return { line, request: { ...defaults, ...(value as object) } as AnalyzeRequest };
}
