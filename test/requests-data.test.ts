/** The written corpora (data/requests, data/dialogues): their loader's checks and the corpora themselves. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDialogues, loadRequests, readRequestFile, splitOf } from '../scripts/eval/requests-data.js';

describe('the purchase-request corpus (data/requests)', () => {
  const file = (lines: object[]): string => {
    const path = join(mkdtempSync(join(tmpdir(), 'requests-')), 'x.jsonl');
    writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n'));
    return path;
  };

  it('resolves mentions to offsets (nth picks a later one) and splits by group', () => {
    const errors: string[] = [];
    const [r] = readRequestFile(
      file([{ id: 'x-1', group: 'x-g01', kind: 'reorder', text: 'more soap, the soap refill too', mentions: [{ text: 'soap', kind: 'generic', nth: 1 }], intent: 1 }]),
      errors,
    );
    expect(errors).toEqual([]);
    expect(r!.mentions).toEqual([{ text: 'soap', start: 15, end: 19, kind: 'generic' }]);
    expect(r).toMatchObject({ purchase_intent: true, split: splitOf('x-g01'), participant: 'Client' });
  });

  it('reports a mention not in the text, an intent off the scale, and a mention at intent 0', () => {
    const errors: string[] = [];
    readRequestFile(
      file([
        { id: 'x-1', group: 'g', kind: 'buy', text: 'buy soap', mentions: [{ text: 'soaps', kind: 'generic' }], intent: 1 },
        { id: 'x-2', group: 'g', kind: 'buy', text: 'buy soap', mentions: [], intent: 0.5 },
        { id: 'x-3', group: 'g', kind: 'negative-chat', text: 'soap is soap', mentions: [{ text: 'soap', kind: 'generic' }], intent: 0 },
      ]),
      errors,
    );
    expect(errors).toHaveLength(3);
    expect(errors.join('\n')).toMatch(/"soaps" not found[\s\S]*intent must be one of[\s\S]*intent 0 with a mention/);
  });

  it('holds at least 800 checked lines, with requests and look-alikes in every split', () => {
    const rows = loadRequests();
    expect(rows.length).toBeGreaterThanOrEqual(800);
    for (const split of ['train', 'dev', 'test'] as const) {
      const part = rows.filter((r) => r.split === split);
      expect(part.some((r) => r.kind.startsWith('negative-'))).toBe(true);
      expect(part.some((r) => !r.kind.startsWith('negative-'))).toBe(true);
    }
    // A group never straddles splits.
    const splitOfGroup = new Map<string, string>();
    for (const r of rows) expect(splitOfGroup.get(r.group) ?? (splitOfGroup.set(r.group, r.split), r.split)).toBe(r.split);
  });

  it('reads a dialogue turn: the dialogue is the group, the speaker is kept, the assistant never buys', () => {
    const errors: string[] = [];
    const rows = readRequestFile(
      file([
        { id: 'd-01#1', dialogue: 'd-01', domain: 'kitchen', participant: 'Wizard', text: 'We have the Ninja AF101 air fryer', mentions: [{ text: 'Ninja AF101 air fryer', kind: 'named' }], intent: 0.4 },
        { id: 'd-01#2', dialogue: 'd-01', domain: 'kitchen', participant: 'Client', text: 'ok buy it', mentions: [], intent: 1 },
        { id: 'd-01#3', dialogue: 'd-01', participant: 'Wizard', text: 'I will buy it for you', mentions: [], intent: 0.7 },
        { id: 'd-01#4', dialogue: 'd-01', participant: 'Shopper', text: 'hi', mentions: [], intent: 0 },
      ]),
      errors,
    );
    expect(rows[0]).toMatchObject({ group: 'd-01', kind: 'dialogue', domain: 'kitchen', participant: 'Wizard', purchase_intent: false, split: splitOf('d-01') });
    expect(rows[1]).toMatchObject({ participant: 'Client', purchase_intent: true });
    expect(errors).toHaveLength(2);
    expect(errors.join('\n')).toMatch(/:3: a Wizard turn above 0.4[\s\S]*:4: participant must be Client or Wizard/);
  });

  it('holds over 1,000 checked dialogue turns, both speakers in every split, a dialogue in one split', () => {
    const rows = loadDialogues();
    expect(rows.length).toBeGreaterThan(1000);
    for (const split of ['train', 'dev', 'test'] as const) {
      const part = rows.filter((r) => r.split === split);
      expect(new Set(part.map((r) => r.participant))).toEqual(new Set(['Client', 'Wizard']));
    }
    const splitOfGroup = new Map<string, string>();
    for (const r of rows) expect(splitOfGroup.get(r.group) ?? (splitOfGroup.set(r.group, r.split), r.split)).toBe(r.split);
    expect(rows.filter((r) => r.participant === 'Wizard').every((r) => r.intent <= 0.4)).toBe(true);
  });
});
