/**
 * Goods, not services (docs/quality.md): which social-set `product` labels are not goods, and
 * how the eval scores goods against the rest.
 */
import { describe, expect, it } from 'vitest';
import type { Extract } from '../scripts/eval/chatset.js';
import { parseConll } from '../scripts/eval/data.js';
import { notGoods } from '../scripts/eval/not-goods.js';
import { evaluateWnut, SOCIAL_SETS } from '../scripts/eval/wnut.js';

describe('notGoods', () => {
  it('takes @-accounts, websites, stations and the stores, services and outlets of the lexicon', () => {
    for (const t of ['{@YouTube@}', '{@Nike@}', 'wordpress.com', '96.5 TDY', 'Google News', 'the New York Times', 'Daily Mail Online', 'Spotify', 'Etsy', 'Poshmark']) {
      expect(notGoods(t), t).toBe(true);
    }
  });

  it('keeps goods, and the outlet names that are everyday words or goods', () => {
    for (const t of ['iPhone 7', 'Xbox 360', 'htc desire z', 'Variety', 'The Sun', 'reels', 'Pandora charm', 'medium']) {
      expect(notGoods(t), t).toBe(false);
    }
  });
});

describe('evaluateWnut scores goods only', () => {
  const sentences = parseConll('watched\tO\nit\tO\non\tO\nyoutube\tB-product\nwith\tO\nmy\tO\nipad\tB-product\n');
  const extract: Extract = (text) => ['youtube', 'ipad'].map((w) => ({ link_text: w, start: text.indexOf(w), kind: 'named' })) as unknown as ReturnType<Extract>;

  it('counts a prediction on a service labelled product against precision, and keeps the labels as given beside it', () => {
    const s = evaluateWnut(sentences, extract, SOCIAL_SETS.wnut17).scores;
    expect(s).toMatchObject({ gold_product: 1, gold_not_goods: 1 });
    expect(s.product).toMatchObject({ tp: 1, precision: 0.5, recall: 1 });
    expect(s.product_as_labelled).toMatchObject({ tp: 2, precision: 1, recall: 1 });
  });
});
