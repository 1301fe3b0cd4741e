/**
 * The LLM fuzz cases (`message_analysis: balanced | thorough` with a mock AI SDK model): what a
 * case is, and fast-check arbitraries for it. A case is a request (through `analyze()` or
 * `handle()`, a mode, a budget, a message carrying a marker) and what the model does with it:
 * answer some text (garbage, cut JSON, 2 MB, wrong types, spans not in the message, a right
 * answer), soon or after the budget; hang, with or without heeding the abort signal; throw at
 * once; reject after a delay; or return a result object that is not one.
 *
 * Whether an answer is usable is not decided here but by the oracle (llm-oracle.ts) from the
 * text itself, so a "garbage" generator that happens to produce a right answer is no false alarm.
 * Runs under vitest and plain `node` (type stripping): relative imports name the `.ts` file.
 */
import fc from 'fast-check';

export type LlmMode = 'balanced' | 'thorough';
export type Via = 'analyze' | 'handle';

/** In every message: no log line may contain it. */
export const MARKER = 'zqxmark7e3';
/** A word of the fuzzing team's `blocked_keywords`: a message with it is refused before the model. */
export const BLOCKED_WORD = 'blockedgizmo';
/** The budgets the cases run with (both modes): small, so hangs cost little. */
export const LLM_BUDGETS_MS = [50, 100] as const;

/** Something thrown or rejected with, from a well-behaved Error to a hostile object. */
export type Thrown =
  | 'error'
  | 'type-error'
  | 'api-call-error'
  | 'abort-error'
  | 'timeout-error'
  | 'json-parse-error'
  | 'string'
  | 'null'
  | 'undefined'
  | 'plain-object'
  | 'long-name'
  | 'name-getter-throws'
  | 'proxy';
export const THROWN: readonly Thrown[] = [
  'error',
  'type-error',
  'api-call-error',
  'abort-error',
  'timeout-error',
  'json-parse-error',
  'string',
  'null',
  'undefined',
  'plain-object',
  'long-name',
  'name-getter-throws',
  'proxy',
];

/** The generator's label for an answer text (for the counts only: the oracle reads the text). */
export type AnswerClass = 'garbage' | 'truncated' | 'huge' | 'wrong-types' | 'invented-span' | 'valid';

export type Finish = 'stop' | 'length' | 'content-filter' | 'other';

/** What the mock model does with the call. */
export type Behaviour =
  /** Answers `text` after `delayMs` (0: at once). */
  | { kind: 'answer'; cls: AnswerClass; text: string; delayMs: number; finish: Finish }
  /** Resolves with something that is not a generate result. */
  | { kind: 'broken-result'; shape: 'null' | 'no-content' | 'content-not-array' | 'text-part-without-text' | 'not-text-part' }
  /** Never resolves; when `heedsAbort`, rejects with the signal's reason once it is aborted. */
  | { kind: 'hang'; heedsAbort: boolean }
  /** Throws synchronously from doGenerate, or returns a rejected promise. */
  | { kind: 'throw'; thrown: Thrown; sync: boolean }
  /** Rejects after `afterMs`, before or after the budget. */
  | { kind: 'reject'; thrown: Thrown; afterMs: number };

export interface LlmCase {
  via: Via;
  mode: LlmMode;
  budgetMs: number;
  message: string;
  /** The message carries BLOCKED_WORD: a CONTENT_BLOCKED refusal, the model never asked. */
  blocked: boolean;
  behaviour: Behaviour;
}

/** English product talk the NLP reads (so the model is asked), with the products marked out. */
export const TEMPLATES: { text: string; products: string[] }[] = [
  { text: 'I want to buy the Sony WH-1000XM5 headphones and maybe an air fryer for my kitchen.', products: ['Sony WH-1000XM5 headphones', 'Sony WH-1000XM5', 'air fryer', 'headphones'] },
  { text: 'Which is better for a small kitchen, an air fryer or the Ninja Foodi? I also need a Kindle Paperwhite.', products: ['air fryer', 'Ninja Foodi', 'Kindle Paperwhite', 'Kindle'] },
  { text: 'Should I buy an iPad or a Galaxy Tab for drawing?', products: ['iPad', 'Galaxy Tab'] },
  { text: 'Recommend a good espresso machine and a burr grinder under $300, please.', products: ['espresso machine', 'burr grinder', 'grinder'] },
  { text: 'My old running shoes are worn out, looking for new Nike Pegasus running shoes.', products: ['running shoes', 'Nike Pegasus running shoes', 'Nike Pegasus'] },
  { text: 'A mouse pad, then a Mouse Pad and a gaming mouse pad for my desk setup.', products: ['mouse pad', 'Mouse Pad', 'gaming mouse pad'] },
  { text: 'Is the Logitech MX Master 3S worth it over a cheap wireless mouse? 🖱️ Asking for work.', products: ['Logitech MX Master 3S', 'wireless mouse', 'MX Master 3S'] },
  { text: 'Looking for a café-style milk frother and a crème brûlée torch as gifts.', products: ['milk frother', 'crème brûlée torch', 'café-style milk frother'] },
];

/** The marker goes before, inside or after the product talk: spans and mentions may carry it. */
const message: fc.Arbitrary<{ message: string; products: string[]; blocked: boolean }> = fc
  .tuple(fc.constantFrom(...TEMPLATES), fc.constantFrom('start', 'end', 'product', 'word'), fc.nat(), fc.nat({ max: 19 }))
  .map(([t, where, pick, blockedRoll]) => {
    let text = t.text;
    let products = t.products;
    if (where === 'start') text = `${MARKER}: ${text}`;
    else if (where === 'end') text = `${text} (${MARKER})`;
    else if (where === 'product') {
      // "the Sony WH-1000XM5 headphones" → "the Sony zqx… WH-1000XM5 headphones": the mark is in a span.
      const p = t.products[pick % t.products.length]!;
      const at = p.indexOf(' ');
      const marked = at < 0 ? `${MARKER} ${p}` : `${p.slice(0, at)} ${MARKER}${p.slice(at)}`;
      text = text.replace(p, marked);
      products = [...products, marked];
    } else {
      const words = text.split(' ');
      words.splice(pick % (words.length + 1), 0, MARKER);
      text = words.join(' ');
    }
    const blocked = blockedRoll === 0;
    if (blocked) text = `${text} Also a ${BLOCKED_WORD}.`;
    return { message: text, products: products.filter((p) => text.includes(p)), blocked };
  });

/** A span of the message: a product of the template, or any substring, maybe padded with white space. */
const spanOf = (msg: string, products: string[]): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...(products.length ? products : [msg.slice(0, 5)])) },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.nat(msg.length - 1), fc.integer({ min: 1, max: 30 })).map(([start, n]) => msg.slice(start, Math.min(msg.length, start + n))),
    },
    { weight: 1, arbitrary: fc.constantFrom(MARKER, msg, '', '   ') },
  ).chain((s) => fc.constantFrom(s, s, s, ` ${s} `, `\n${s}\t`));

/** A span that is not in the message, by a near miss or not at all. */
const inventedSpan = (msg: string, products: string[]): fc.Arbitrary<string> =>
  fc.oneof(
    spanOf(msg, products).map((s) => s.toUpperCase()),
    spanOf(msg, products).map((s) => `${s}s`),
    spanOf(msg, products).map((s) => `the ${s}`),
    spanOf(msg, products).map((s) => s.normalize('NFD')),
    spanOf(msg, products).map((s) => [...s].join('\u200b')),
    fc.constantFrom('Dyson V15 Detect', 'PlayStation 5', 'Sony WH-1000XM5 Headphones', `${msg}!`, 'x'.repeat(5001)),
    fc.string({ minLength: 1, maxLength: 20 }),
  );

const kind = fc.constantFrom('named', 'generic');
const brand = fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 3, arbitrary: fc.constantFrom('Sony', 'sony', 'Acme', 'Nike', MARKER, '') }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });
/** Any finite number, in range or not: the core clamps it. */
const intent = fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.constantFrom(0, 1, -0, 1e300, -1e300, 5e-324));

type Mention = { text: unknown; kind: unknown; brand?: unknown; [k: string]: unknown };
type Answer = { mentions: unknown; purchase_intent?: unknown; [k: string]: unknown };

/** A right answer for the mode: spans of the message (0 to 60 of them), and an intent for thorough. */
const validAnswer = (mode: LlmMode, msg: string, products: string[]): fc.Arbitrary<Answer> =>
  fc
    .record({
      mentions: fc.oneof(
        { weight: 6, arbitrary: fc.array(fc.record({ text: spanOf(msg, products), kind, brand }), { maxLength: 6 }) },
        { weight: 1, arbitrary: fc.array(fc.record({ text: spanOf(msg, products), kind, brand }), { minLength: 45, maxLength: 60 }) },
      ),
      purchase_intent: intent,
      extra: fc.option(fc.dictionary(fc.constantFrom('reasoning', 'confidence', 'notes', 'id'), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }), { freq: 4 }),
      balancedIntent: fc.option(fc.oneof(intent, fc.constantFrom<unknown>('high', null, [0.5])), { freq: 3 }),
    })
    .map(({ mentions, purchase_intent, extra, balancedIntent }) => {
      const a: Answer = { ...(extra ?? {}), mentions };
      // Balanced's schema has no purchase_intent: whatever the model adds there is ignored.
      if (mode === 'thorough') a.purchase_intent = purchase_intent;
      else if (balancedIntent !== null) a.purchase_intent = balancedIntent;
      return a;
    });

/** One value of the wrong type: numbers for strings, nested arrays, null, objects. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(42, 0, -1, true, false, null, [], {}, [[]], [['air fryer']], [[['x']]], { text: 'air fryer' }, '0.5', 'NaN'),
  fc.double(),
  fc.jsonValue({ maxDepth: 2 }),
);

/** A right answer with one place given the wrong type (or dropped). */
const wrongTypes = (mode: LlmMode, msg: string, products: string[]): fc.Arbitrary<unknown> =>
  fc
    .tuple(
      validAnswer(mode, msg, products).filter((a) => Array.isArray(a.mentions) && a.mentions.length > 0),
      fc.constantFrom('text', 'kind', 'brand', 'drop-brand', 'drop-text', 'mention', 'mentions', 'drop-mentions', 'intent', 'drop-intent', 'root', 'nest-mentions'),
      wrongValue,
      fc.nat(),
    )
    .map(([a, where, value, at]) => {
      const mentions = a.mentions as Mention[];
      const i = at % mentions.length;
      const m = { ...mentions[i]! };
      switch (where) {
        case 'text':
        case 'kind':
        case 'brand':
          m[where] = value;
          break;
        case 'drop-brand':
          delete m.brand;
          break;
        case 'drop-text':
          delete m.text;
          break;
        case 'mention':
          return { ...a, mentions: mentions.map((x, j) => (j === i ? value : x)) };
        case 'mentions':
          return { ...a, mentions: value };
        case 'drop-mentions': {
          const { mentions: _dropped, ...rest } = a;
          return rest;
        }
        case 'intent':
          return { ...a, purchase_intent: value };
        case 'drop-intent': {
          const { purchase_intent: _dropped, ...rest } = a;
          return rest;
        }
        case 'root':
          return [[a], a.mentions, 7, 'mentions', null][at % 5];
        case 'nest-mentions':
          return { ...a, mentions: [a.mentions] };
      }
      return { ...a, mentions: mentions.map((x, j) => (j === i ? m : x)) };
    });

/** A right answer with one span replaced by one that is not in the message. */
const withInventedSpan = (mode: LlmMode, msg: string, products: string[]): fc.Arbitrary<Answer> =>
  fc.tuple(validAnswer(mode, msg, products), inventedSpan(msg, products), fc.nat(), kind).map(([a, span, at, k]) => {
    const mentions = [...(a.mentions as Mention[])];
    // Anywhere in the list, past the 50th too.
    mentions.splice(at % (mentions.length + 1), 0, { text: span, kind: k, brand: null });
    return { ...a, mentions };
  });

const TWO_MB = 2 * 1024 * 1024;

/** About 2 MB of answer: garbage, one huge span, a huge brand, or tens of thousands of right spans. */
const huge = (mode: LlmMode, msg: string, products: string[]): fc.Arbitrary<string> =>
  fc.tuple(fc.constantFrom('garbage', 'huge-span', 'huge-brand', 'many-right', 'many-one-invented', 'deep'), validAnswer(mode, msg, products), fc.nat()).map(([how, a, at]) => {
    const intent = mode === 'thorough' ? { purchase_intent: 0.5 } : {};
    switch (how) {
      case 'garbage':
        return `{"mentions": [${'x'.repeat(TWO_MB)}`;
      case 'huge-span':
        return JSON.stringify({ mentions: [{ text: msg.repeat(Math.ceil(TWO_MB / msg.length)), kind: 'generic', brand: null }], ...intent });
      case 'huge-brand':
        return JSON.stringify({ mentions: [{ text: products[0] ?? msg, kind: 'named', brand: 'B'.repeat(TWO_MB) }], ...intent });
      case 'deep':
        return `{"mentions":${'['.repeat(TWO_MB / 2)}${']'.repeat(TWO_MB / 2)}}`;
      case 'many-right':
      case 'many-one-invented': {
        const one = (a.mentions as Mention[])[0] ?? { text: products[0] ?? msg, kind: 'generic', brand: null };
        const item = JSON.stringify(one);
        const n = Math.ceil(TWO_MB / (item.length + 1));
        const items = Array<string>(n).fill(item);
        if (how === 'many-one-invented') items[50 + (at % (n - 50))] = JSON.stringify({ text: `${MARKER} not in the message`, kind: 'generic', brand: null });
        return `{"mentions":[${items.join(',')}]${mode === 'thorough' ? ',"purchase_intent":0.5' : ''}}`;
      }
    }
  });

/** Text a model may say instead of JSON. */
const garbage = (msg: string): fc.Arbitrary<string> =>
  fc.oneof(
    fc.constantFrom(
      '',
      ' ',
      '\n',
      'null',
      'true',
      '42',
      '"mentions"',
      '[]',
      '{}',
      '{"mentions":null}',
      'Sure! Here are the products I found: an air fryer.',
      '```json\n{"mentions":[]}\n```',
      '{"mentions":[]} trailing words',
      "{'mentions': []}",
      '{"mentions":[],}',
      'NaN',
      '\ufeff{"mentions":[]}',
      '{"__proto__":{"polluted":1},"mentions":[]}',
      '{"constructor":{"prototype":{"polluted":1}},"mentions":[]}',
      `I cannot help with "${msg}".`,
    ),
    fc.string({ maxLength: 200 }),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null'),
  );

const text = (value: unknown, pretty: boolean): string => JSON.stringify(value, null, pretty ? 2 : undefined) ?? 'undefined';

/** The answer text, for the mode and message. */
const answerText = (mode: LlmMode, msg: string, products: string[]): fc.Arbitrary<{ cls: AnswerClass; text: string }> =>
  fc.oneof(
    { weight: 3, arbitrary: garbage(msg).map((t) => ({ cls: 'garbage' as const, text: t })) },
    {
      weight: 3,
      arbitrary: fc.tuple(validAnswer(mode, msg, products), fc.nat()).map(([a, cut]) => {
        const t = JSON.stringify(a);
        return { cls: 'truncated' as const, text: t.slice(0, cut % t.length) };
      }),
    },
    { weight: 1, arbitrary: huge(mode, msg, products).map((t) => ({ cls: 'huge' as const, text: t })) },
    { weight: 4, arbitrary: fc.tuple(wrongTypes(mode, msg, products), fc.boolean()).map(([a, p]) => ({ cls: 'wrong-types' as const, text: text(a, p) })) },
    { weight: 4, arbitrary: fc.tuple(withInventedSpan(mode, msg, products), fc.boolean()).map(([a, p]) => ({ cls: 'invented-span' as const, text: text(a, p) })) },
    {
      weight: 8,
      arbitrary: fc.tuple(validAnswer(mode, msg, products), fc.boolean(), fc.constantFrom('', ' ', '\n', '\t\n ')).map(([a, p, pad]) => ({ cls: 'valid' as const, text: pad + text(a, p) + pad })),
    },
  );

/** When the answer comes: at once, well within the budget, or after it. */
const delay = (budgetMs: number): fc.Arbitrary<number> =>
  fc.oneof({ weight: 6, arbitrary: fc.constant(0) }, { weight: 3, arbitrary: fc.integer({ min: 1, max: Math.floor(budgetMs / 4) }) }, { weight: 1, arbitrary: fc.integer({ min: budgetMs + 10, max: budgetMs + 60 }) });

const finish = fc.oneof({ weight: 12, arbitrary: fc.constant<Finish>('stop') }, { weight: 1, arbitrary: fc.constantFrom<Finish>('length', 'content-filter', 'other') });
const thrown = fc.constantFrom(...THROWN);

const behaviour = (mode: LlmMode, budgetMs: number, msg: string, products: string[]): fc.Arbitrary<Behaviour> =>
  fc.oneof(
    { weight: 14, arbitrary: fc.record({ a: answerText(mode, msg, products), delayMs: delay(budgetMs), finish }).map(({ a, delayMs, finish }): Behaviour => ({ kind: 'answer', cls: a.cls, text: a.text, delayMs, finish })) },
    { weight: 1, arbitrary: fc.constantFrom('null', 'no-content', 'content-not-array', 'text-part-without-text', 'not-text-part').map((shape): Behaviour => ({ kind: 'broken-result', shape: shape as 'null' })) },
    { weight: 2, arbitrary: fc.boolean().map((heedsAbort): Behaviour => ({ kind: 'hang', heedsAbort })) },
    { weight: 2, arbitrary: fc.record({ thrown, sync: fc.boolean() }).map(({ thrown, sync }): Behaviour => ({ kind: 'throw', thrown, sync })) },
    { weight: 2, arbitrary: fc.record({ thrown, afterMs: fc.integer({ min: 0, max: 2 * budgetMs }) }).map(({ thrown, afterMs }): Behaviour => ({ kind: 'reject', thrown, afterMs })) },
  );

export const llmCase: fc.Arbitrary<LlmCase> = fc
  .record({ via: fc.constantFrom<Via>('analyze', 'handle'), mode: fc.constantFrom<LlmMode>('balanced', 'thorough'), budgetMs: fc.constantFrom(...LLM_BUDGETS_MS), m: message })
  .chain(({ via, mode, budgetMs, m }) =>
    behaviour(mode, budgetMs, m.message, m.products).map((b): LlmCase => ({ via, mode, budgetMs, message: m.message, blocked: m.blocked, behaviour: b })),
  );

/** A case, readable and bounded: long answers cut to a preview. */
export function describeLlmCase(c: LlmCase): string {
  const preview = (s: string, n = 300) => JSON.stringify(s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);
  const b = c.behaviour;
  const what =
    b.kind === 'answer'
      ? `answers (${b.cls}, finish ${b.finish}) after ${b.delayMs} ms: ${preview(b.text)}`
      : b.kind === 'broken-result'
        ? `returns a broken result (${b.shape})`
        : b.kind === 'hang'
          ? `hangs (${b.heedsAbort ? 'rejects on abort' : 'ignores the abort signal'})`
          : b.kind === 'throw'
            ? `throws ${b.thrown} (${b.sync ? 'synchronously' : 'a rejected promise'})`
            : `rejects with ${b.thrown} after ${b.afterMs} ms`;
  return [`${c.via}() ${c.mode}, budget ${c.budgetMs} ms${c.blocked ? ', blocked word' : ''}`, `message: ${preview(c.message)}`, `model: ${what}`].join('\n');
}
