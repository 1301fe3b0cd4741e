/**
 * The Amazon Creators API resolver (stage `retailer_api`): SearchItems on the query's
 * marketplace with the credential that serves it, items mapped to products whose URLs are
 * Amazon's own `detailPageURL`s (they carry the team's tag). Any failure answers null.
 */
import { silentLogger, type Logger } from '../../core/log.js';
import { ResolverFailure, type Resolution, type ResolveQuery, type Resolver } from '../../core/resolve/resolver.js';
import type { Product } from '../../core/types.js';
import { CreatorsClient, type CredentialRuntime } from './client.js';
import { parseCreatorsConfig, Secret, type CreatorsConfig, type CreatorsCredential } from './config.js';
import type { Now } from '../limits.js';
import { toProduct } from './wire.js';

/** Without a signal from the chain, no call may run longer than this. */
const DEFAULT_TIMEOUT_MS = 5_000;

export interface CreatorsResolverDeps {
  logger?: Logger;
  /** Epoch ms; injectable for tests. */
  now?: Now;
}

export interface CreatorsResolver extends Resolver {
  /** Aborts in-flight calls (token and search); every later `resolve` answers null. */
  close(): void;
  /** Token requests sent per credential, in config order (for metrics and tests). */
  tokenRequests(): number[];
}

/**
 * `config`: the `retailer_api` value (one credential or an array), raw or already parsed by
 * `parseCreatorsConfig`. An invalid config throws a CreatorsConfigError here, at startup.
 */
export function creatorsResolver(
  config: CreatorsConfig | CreatorsCredential[],
  deps: CreatorsResolverDeps = {},
): CreatorsResolver {
  const credentials = isParsed(config) ? config : parseCreatorsConfig(config);
  const logger = deps.logger ?? silentLogger;
  const now = deps.now ?? Date.now;
  const closing = new AbortController();
  const client = new CreatorsClient({ logger, now, closed: closing.signal });
  const runtimes = credentials.map((c, i) => client.runtime(c, i));

  // The first credential listing a store serves it.
  const byStore = new Map<string, CredentialRuntime>();
  for (const rt of runtimes) {
    for (const code of rt.credential.marketplaces) if (!byStore.has(code)) byStore.set(code, rt);
  }

  async function resolve(query: ResolveQuery): Promise<Resolution | null> {
    const rt = byStore.get(query.marketplace.code);
    if (!rt || closing.signal.aborted || query.signal?.aborted) return null;
    const signal = AbortSignal.any([closing.signal, query.signal ?? AbortSignal.timeout(DEFAULT_TIMEOUT_MS)]);
    const items = await client.searchItems(
      rt,
      query.marketplace,
      { keywords: query.search_term, partnerTag: query.tag, itemCount: rt.credential.item_count },
      signal,
    );
    if (!items) return null;
    const ctx = { host: query.marketplace.host, tag: query.tag };
    const products: Product[] = [];
    const seen = new Set<string>();
    for (const item of items) {
      const product = toProduct(item, ctx);
      if (!product || seen.has(product.url)) continue;
      seen.add(product.url);
      products.push(product);
      if (products.length >= rt.credential.item_count) break;
    }
    const ordered = preferBrand(products, query.term_brand);
    const first = ordered[0];
    return first ? { source: 'retailer_api', url: first.url, products: ordered } : null;
  }

  return {
    name: 'creators-api',
    stage: 'retailer_api',
    async resolve(query: ResolveQuery): Promise<Resolution | null> {
      try {
        return await resolve(query);
      } catch (err) {
        // A failure of the upstream is the chain's to count; nothing else escapes.
        if (err instanceof ResolverFailure) throw err;
        return null;
      }
    },
    close(): void {
      closing.abort();
    },
    tokenRequests: () => runtimes.map((rt) => rt.tokens.requests),
  };
}

/** With a brand in the term, products of that brand ("Volt" matches "Volt Devices") first, stable. */
function preferBrand(products: Product[], brand: string | null): Product[] {
  if (!brand) return products;
  const want = brand.toLowerCase();
  const matches = (p: Product) => {
    const have = p.brand_name?.toLowerCase();
    return have !== undefined && (have === want || have.startsWith(want + ' '));
  };
  return [...products.filter(matches), ...products.filter((p) => !matches(p))];
}

function isParsed(config: CreatorsConfig | CreatorsCredential[]): config is CreatorsCredential[] {
  return Array.isArray(config) && config.every((c) => c.credential_secret instanceof Secret && 'provider' in c);
}
