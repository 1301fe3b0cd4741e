/** Teams, keys, a controllable clock and a request helper shared by the tests. */
import { createChatAds, generateKey, type ChatAds, type ChatAdsOptions, type TeamConfig } from '../../src/index.js';
import type { Envelope } from '../../src/core/types.js';

export const MESSAGES = '/v1/chatads/messages';

/** A clock the test moves by hand; starts at 2026-11-22T12:00:00.000Z. */
export function manualClock(start = Date.UTC(2026, 10, 22, 12, 0, 0)) {
  let t = start;
  const now = () => t;
  return {
    now,
    set(ms: number) {
      t = ms;
    },
    advance(ms: number) {
      t += ms;
    },
  };
}

export interface TeamWithKey {
  config: TeamConfig;
  key: string;
}

export function team(overrides: Partial<TeamConfig> = {}, id = overrides.id ?? 'acme'): TeamWithKey {
  const { key, hash } = generateKey();
  return {
    key,
    config: {
      id,
      plan: 'pro',
      keys: [{ id: 'k1', hash }],
      affiliate_tags: { US: 'acme-20', GB: 'acme-21', DE: 'acme-03' },
      default_country: 'US',
      ...overrides,
    },
  };
}

export function chatadsWith(teams: TeamWithKey[], options: ChatAdsOptions = {}): ChatAds {
  return createChatAds({ teams: teams.map((t) => t.config), ...options });
}

export interface Reply {
  status: number;
  headers: Headers;
  body: Envelope;
}

export async function post(
  url: string,
  body: unknown,
  key: string | null,
  init: { headers?: Record<string, string>; raw?: boolean; method?: string; path?: string } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...init.headers };
  if (key !== null) headers['x-api-key'] = key;
  const res = await fetch(url + (init.path ?? MESSAGES), {
    method: init.method ?? 'POST',
    headers,
    body: init.raw ? (body as string) : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text) as Envelope };
}

export const BUYING = 'What are the best noise cancelling headphones under $300? I am looking at the Sony WH-1000XM5.';

/** The in-process answer to a message withheld by the rules stage (the floor, or a language not read): nothing analysed, not billed. */
export function withheldData(reason: 'sensitive_topic' | 'unsupported_language', language: string) {
  return {
    status: 'no_offers_found',
    matched: false,
    reason,
    offers: [],
    requested: 0,
    returned: 0,
    billed: false,
    intent_score: null,
    intent_level: null,
    extraction_method: 'skipped',
    language,
  } as const;
}
