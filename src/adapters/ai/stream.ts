/** Stream mode, for both layers: provider parts (`delta`) and streamText parts (`text`). */
import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { TextStreamPart } from 'ai';
import type { LinkOffer } from '../../linkify/types.js';
import { Run, Block } from './run.js';


export interface PartKind<P> {
  /** The text of a `text-delta` part. */
  text(part: P): string;
  /** A new `text-delta` part. */
  delta(id: string, text: string, providerMetadata: unknown): P;
  /** Parts that end every text block still open (before they pass). */
  closesBlocks(type: string): boolean;
}

export const providerParts: PartKind<LanguageModelV4StreamPart> = {
  text: (part) => (part as { delta: string }).delta,
  delta: (id, delta, providerMetadata) =>
    (providerMetadata === undefined
      ? { type: 'text-delta', id, delta }
      : { type: 'text-delta', id, delta, providerMetadata }) as LanguageModelV4StreamPart,
  closesBlocks: (type) => type === 'finish',
};

export const streamTextParts: PartKind<TextStreamPart<any>> = {
  text: (part) => (part as { text: string }).text,
  delta: (id, text, providerMetadata) =>
    (providerMetadata === undefined ? { type: 'text-delta', id, text } : { type: 'text-delta', id, text, providerMetadata }) as TextStreamPart<any>,
  closesBlocks: (type) => type === 'finish-step' || type === 'finish',
};

export interface Sentence {
  text: string;
  /** Where it starts in the block's text. */
  start: number;
  offers: Promise<LinkOffer[]>;
  /** `providerMetadata` of the block's latest delta when the sentence was cut. */
  meta: unknown;
}

export interface OpenBlock {
  block: Block;
  /** `providerMetadata` of the block's latest delta. */
  meta: unknown;
  /** Characters received, and characters cut into sentences so far. */
  received: number;
  cut: number;
  /** Cut, analysis under way, not yet emitted. */
  sentences: Sentence[];
  /** Steps of the output queue waiting for the cut to reach a position. */
  waiters: { at: number; resolve: () => void }[];
}

/**
 * Nothing overtakes: every part goes out after all the text that came in before it (rounded up to
 * the end of that text's sentence, the unit that is analysed and pushed). The output is one queue
 * of steps, in arrival order; a step of text waits for its sentence to be cut and analysed (at most
 * the deadline once cut), and the steps behind it wait with it. Analyses start as soon as a
 * sentence is cut, so they overlap. Parts other than text pass unchanged.
 */
export function linkingStream<P extends { type: string }>(run: Run, kind: PartKind<P>): TransformStream<P, P> {
  const open = new Map<string, OpenBlock>();
  let tail: Promise<void> = Promise.resolve();
  let dead = false;
  let out!: TransformStreamDefaultController<P>;

  const send = (part: P) => {
    if (dead) return;
    try {
      out.enqueue(part);
    } catch {
      dead = true; // the reader went away
    }
  };
  const later = (step: () => void | Promise<void>) => {
    tail = tail.then(step).catch((err: unknown) => {
      if (dead) return;
      dead = true;
      try {
        out.error(err);
      } catch {
        // already closed
      }
    });
  };

  /** New sentences of a block: their analyses start now; waiting steps are released. */
  const accept = (b: OpenBlock, sentences: string[]) => {
    for (const text of sentences) {
      b.sentences.push({ text, start: b.cut, offers: run.sentenceOffers(text), meta: b.meta });
      b.cut += text.length;
    }
    if (sentences.length === 0) return;
    b.waiters = b.waiters.filter((w) => {
      if (w.at > b.cut) return true;
      w.resolve();
      return false;
    });
  };
  const reached = (b: OpenBlock, at: number): Promise<void> | void => {
    if (b.cut >= at) return;
    return new Promise((resolve) => b.waiters.push({ at, resolve }));
  };
  /** In order: each sentence's offers, then its push; what push returns is one delta. */
  const emitBefore = async (b: OpenBlock, at: number) => {
    while (b.sentences.length > 0 && (b.sentences[0] as Sentence).start < at) {
      const s = b.sentences.shift() as Sentence;
      const text = b.block.emit(s.text, await s.offers);
      if (text !== '') send(kind.delta(b.block.id, text, s.meta));
    }
  };
  const close = (b: OpenBlock) => {
    open.delete(b.block.id);
    accept(b, b.block.rest());
    later(async () => {
      await emitBefore(b, Infinity);
      const end = b.block.close();
      if (end.text !== '') send(kind.delta(b.block.id, end.text, b.meta));
      run.reportLinks(end.links, b.block.id);
    });
  };
  const blockOf = (id: string): OpenBlock => {
    let b = open.get(id);
    if (!b) open.set(id, (b = { block: new Block(run, id), meta: undefined, received: 0, cut: 0, sentences: [], waiters: [] }));
    return b;
  };

  return new TransformStream<P, P>({
    start(controller) {
      out = controller;
    },
    transform(part) {
      const id = (part as { id?: unknown }).id;
      switch (part.type) {
        case 'text-start':
          if (typeof id === 'string') blockOf(id);
          break;
        case 'text-delta': {
          if (typeof id !== 'string') break;
          const b = blockOf(id);
          const text = kind.text(part);
          if (typeof text !== 'string' || text === '') return;
          b.meta = (part as { providerMetadata?: unknown }).providerMetadata;
          b.received += text.length;
          const at = b.received;
          accept(b, b.block.write(text));
          later(async () => {
            await reached(b, at);
            await emitBefore(b, at);
          });
          return;
        }
        case 'text-end': {
          const b = typeof id === 'string' ? open.get(id) : undefined;
          if (b) close(b);
          break;
        }
        default:
          if (kind.closesBlocks(part.type)) for (const b of [...open.values()]) close(b);
      }
      later(() => send(part));
    },
    flush() {
      for (const b of [...open.values()]) close(b);
      return tail;
    },
  });
}
