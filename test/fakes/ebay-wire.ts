/**
 * The eBay wire facts the fake in ebay-server.ts speaks, kept apart from the server itself: paths,
 * scope, marketplaces, error bodies, the fake catalogue, the packed-header and affiliate-URL forms,
 * and the fault type with its constructors. ebay-server.ts re-exports all of it.
 *
 * A fake eBay on 127.0.0.1 speaking the wire format of the OAuth client-credentials grant
 * (`POST /identity/v1/oauth2/token`) and the Browse API search (`GET
 * /buy/browse/v1/item_summary/search`), for the eBay Partner Network resolver (issue 26).
 * Records every request; faults are injected per path, as in creators-server.ts.
 *
 * What was checked, and where (searched 2026; "spec" = eBay's Browse OpenAPI file
 * buy_browse_v1_oas3.yaml as mirrored in github.com/brandon14/ebay-sdk-php/api-specs/):
 * - Token request: developer.ebay.com/api-docs/static/oauth-client-credentials-grant.html and
 *   oauth-qref-client-credentials-grant.html: POST .../identity/v1/oauth2/token,
 *   `Content-Type: application/x-www-form-urlencoded`, `Authorization: Basic
 *   base64(<client_id>:<client_secret>)`, body `grant_type=client_credentials&scope=<URL-encoded,
 *   space-separated scopes>`; the answer carries `access_token` and `token_type: "Application
 *   Access Token"`. The spec's securitySchemes name `https://api.ebay.com/oauth/api_scope` for search.
 * - `expires_in: 7200`: oauth-ui-tokens.html says application tokens live "two hours or less";
 *   7200 is what public clients and fixtures show. The exact figure is not in eBay's own pages.
 * - 401 `invalid_client` / `client authentication failed`: the body eBay returns for bad credentials,
 *   quoted in GitHub issues (pajaydev/ebay-node-api#81, matecsaj/ebay_rest#24). The texts for
 *   `unsupported_grant_type`, `invalid_scope` and `invalid_request` are NOT verified (RFC 6749 codes;
 *   the descriptions here are plausible stand-ins).
 * - Search: the spec. `q`, `limit` (default 50, 1..200; errors 12006/12007), `offset`, `filter`;
 *   12001 when there is no `q` (nor category_ids/epid/gtin); 500 is errorId 12000 API_BROWSE
 *   APPLICATION. Response `SearchPagedCollection` {href, total, limit, offset, next, itemSummaries};
 *   `ItemSummary` {itemId, title, price{value,currency}, image{imageUrl}, itemWebUrl,
 *   itemAffiliateWebUrl, condition, conditionId, buyingOptions, legacyItemId, ...}.
 *   `itemAffiliateWebUrl` "is only returned if ... including the X-EBAY-C-ENDUSERCTX request header"
 *   (spec). Only FIXED_PRICE listings are returned by default (spec) — the fake does NOT model that;
 *   it returns what the catalogue holds unless `filter=buyingOptions:{...}` is sent.
 * - X-EBAY-C-ENDUSERCTX is a "packed header" (rest-request-components.html): `name=value` pairs
 *   separated by commas, values URL-encoded (e.g. `contextualLocation=country%3DUS%2Czip%3D19406`).
 * - Affiliate link form: developer.ebay.com/api-docs/buy/static/ref-epn-link.html:
 *   `{target}&mkevt=1&mkcid=1&mkrid={rotation id}&campid={campaign}&toolid={tool}&customid={sub id}`.
 *   That page gives toolid "Default value: 10001", but item URLs returned by the Browse API, as
 *   captured in public fixtures, carry `toolid=10049` and an empty `customid=` when no reference id
 *   is sent, with the item's own `?hash=...` query before the tracking parameters. The fake follows
 *   the captured API output (API_TOOL_ID = 10049). A captured response with a placeholder campaign
 *   (`campid=%253CePNCampaignId%253E`) shows eBay echoes the campaign id without validating it; so
 *   does the fake.
 * - Rotation ids: AU 705-53470-19255-0 and CA 706-53473-19255-0 read in eBay's own table
 *   (ref-epn-link.html); the rest of that table was cut off in what could be read. US
 *   711-53200-19255-0, GB 710-53481-19255-0, DE 707-53477-19255-0, FR 709-53476-19255-0, IT
 *   724-53478-19255-0, ES 1185-53479-19255-0 agree across several independent public code bases
 *   and captured links, but were not read in eBay's own table.
 * - Marketplace ids EBAY_US ... EBAY_AU: MarketplaceIdEnum (developer.ebay.com). The value "is case
 *   sensitive" (spec). Missing header: the spec lists 10025 "The header 'X-EBAY-C-MARKETPLACE-ID' is
 *   required" (400, API_BROWSE) for the Browse API's cart methods; for search the header is not
 *   listed and eBay may default to EBAY_US (not verified) — the fake is stricter on purpose, so a
 *   resolver that forgets the header fails. Unknown marketplace: the spec lists 12019 "Currently, the
 *   {marketplaceId} marketplace is not supported" under 409 Conflict for search (not 400); the fake
 *   answers 409 by default, `unknownMarketplaceStatus: 400` switches it.
 * - Common errors (developer.ebay.com/develop/api/sell/error_codes): 400 1002 "Missing access
 *   token", 400 1003 token type invalid. 401 1001 `{"errorId":1001,"domain":"OAuth","category":
 *   "REQUEST","message":"Invalid access token","longMessage":"Invalid access token. Check the value
 *   of the Authorization HTTP request header."}` (a live response quoted in public code); eBay gives
 *   the same 1001 for expired and unknown tokens. 403 1100 ACCESS "Access denied" / "Insufficient
 *   permissions to fulfill the request." and 429 2001 ACCESS "Too many requests." / "The request
 *   limit has been reached for the resource." are quoted from live responses in public code.
 *   That eBay sends `Retry-After` with a 429 is claimed by a third-party blog only — NOT verified.
 */

export const TOKEN_PATH = '/identity/v1/oauth2/token';
export const SEARCH_PATH = '/buy/browse/v1/item_summary/search';
export const API_SCOPE = 'https://api.ebay.com/oauth/api_scope';
/** The `toolid` seen in affiliate URLs returned by the Browse API (EPN's link default is 10001). */
export const API_TOOL_ID = '10049';

export type MarketplaceId = 'EBAY_US' | 'EBAY_GB' | 'EBAY_DE' | 'EBAY_FR' | 'EBAY_IT' | 'EBAY_ES' | 'EBAY_CA' | 'EBAY_AU';

export interface EbayMarketplace {
  id: MarketplaceId;
  /** Site host without `www.`. */
  host: string;
  currency: string;
  /** EPN rotation id, the `mkrid` parameter. */
  rotationId: string;
}

export const EBAY_MARKETPLACES: Readonly<Record<MarketplaceId, EbayMarketplace>> = {
  EBAY_US: { id: 'EBAY_US', host: 'ebay.com', currency: 'USD', rotationId: '711-53200-19255-0' },
  EBAY_GB: { id: 'EBAY_GB', host: 'ebay.co.uk', currency: 'GBP', rotationId: '710-53481-19255-0' },
  EBAY_DE: { id: 'EBAY_DE', host: 'ebay.de', currency: 'EUR', rotationId: '707-53477-19255-0' },
  EBAY_FR: { id: 'EBAY_FR', host: 'ebay.fr', currency: 'EUR', rotationId: '709-53476-19255-0' },
  EBAY_IT: { id: 'EBAY_IT', host: 'ebay.it', currency: 'EUR', rotationId: '724-53478-19255-0' },
  EBAY_ES: { id: 'EBAY_ES', host: 'ebay.es', currency: 'EUR', rotationId: '1185-53479-19255-0' },
  EBAY_CA: { id: 'EBAY_CA', host: 'ebay.ca', currency: 'CAD', rotationId: '706-53473-19255-0' },
  EBAY_AU: { id: 'EBAY_AU', host: 'ebay.com.au', currency: 'AUD', rotationId: '705-53470-19255-0' },
};

/** What the server does with one request. `ok` is the normal behaviour. */
export type Fault =
  | 'ok'
  /** 200 with a body that is not JSON (cut off mid-way). */
  | 'malformed'
  /** The socket is destroyed without an answer. */
  | 'reset'
  /** Headers and part of the body are sent; the response never finishes. */
  | 'hang'
  /** 200 with no results: search `{href, total: 0, limit, offset}` without `itemSummaries`; token `{}`. */
  | 'empty'
  /** 200 with an HTML page (`text/html`), as a proxy or captive portal answers. */
  | 'html'
  /** Token path: 401 invalid_client. Search: 401 errorId 1001 Invalid access token. */
  | 401
  /** 403 errorId 1100 Access denied (both paths). */
  | 403
  /** 429 errorId 2001 Too many requests, with the server's default `Retry-After`. */
  | 429
  /** Token path: 500 server_error. Search: 500 errorId 12000. */
  | 500
  /** 429 with this `Retry-After` (`null`: no header). */
  | { kind: 'throttled'; retryAfter: string | null }
  | { kind: 'latency'; ms: number; then: Fault }
  | { kind: 'status'; code: number; body: unknown; headers?: Record<string, string> };

export function latency(ms: number, then: Fault = 'ok'): Fault {
  return { kind: 'latency', ms, then };
}

export function status(code: number, body: unknown, headers?: Record<string, string>): Fault {
  return headers ? { kind: 'status', code, body, headers } : { kind: 'status', code, body };
}

/** 429 with a chosen `Retry-After` value (seconds or an HTTP date); `null` sends none. */
export function throttled(retryAfter: number | string | null): Fault {
  return { kind: 'throttled', retryAfter: retryAfter === null ? null : String(retryAfter) };
}

/** What a proxy or captive portal answers instead of the API. */
export const HTML_PAGE = '<!doctype html><html><head><title>Service unavailable</title></head><body><h1>Please try again later</h1></body></html>';

interface ErrorData {
  errorId: number;
  domain: string;
  category: 'REQUEST' | 'BUSINESS' | 'APPLICATION';
  message: string;
  longMessage?: string;
}

function errors(...list: ErrorData[]): { errors: ErrorData[] } {
  return { errors: list };
}

const SUPPORTED = Object.keys(EBAY_MARKETPLACES).join(', ');

/** Error bodies, as eBay sends them (see the header for sources and what is unverified). */
export const bodies = {
  invalidClient: { error: 'invalid_client', error_description: 'client authentication failed' },
  unsupportedGrantType: {
    error: 'unsupported_grant_type',
    error_description: 'grant type in request is not supported by the authorization server',
  },
  invalidScope: {
    error: 'invalid_scope',
    error_description: 'The requested scope is invalid, unknown, malformed, or exceeds the scope granted to the client',
  },
  invalidRequest: { error: 'invalid_request', error_description: 'request is missing a required parameter or malformed.' },
  tokenServerError: { error: 'server_error', error_description: 'There was an internal error on the server.' },
  invalidToken: errors({
    errorId: 1001,
    domain: 'OAuth',
    category: 'REQUEST',
    message: 'Invalid access token',
    longMessage: 'Invalid access token. Check the value of the Authorization HTTP request header.',
  }),
  missingToken: errors({
    errorId: 1002,
    domain: 'OAuth',
    category: 'REQUEST',
    message: 'Missing access token',
    longMessage: 'Access token is missing in the Authorization HTTP request header.',
  }),
  badTokenType: errors({
    errorId: 1003,
    domain: 'OAuth',
    category: 'REQUEST',
    message: 'Token type in the Authorization header is invalid',
  }),
  accessDenied: errors({
    errorId: 1100,
    domain: 'ACCESS',
    category: 'REQUEST',
    message: 'Access denied',
    longMessage: 'Insufficient permissions to fulfill the request.',
  }),
  throttled: errors({
    errorId: 2001,
    domain: 'ACCESS',
    category: 'REQUEST',
    message: 'Too many requests.',
    longMessage: 'The request limit has been reached for the resource.',
  }),
  missingMarketplace: errors({
    errorId: 10025,
    domain: 'API_BROWSE',
    category: 'REQUEST',
    message: `The header 'X-EBAY-C-MARKETPLACE-ID' is required. The valid Marketplaces are: ${SUPPORTED}.`,
  }),
  unsupportedMarketplace: (id: string) =>
    errors({
      errorId: 12019,
      domain: 'API_BROWSE',
      category: 'BUSINESS',
      message: `Currently, the ${id} marketplace is not supported. The supported Marketplaces are: ${SUPPORTED} .`,
    }),
  missingQuery: errors({
    errorId: 12001,
    domain: 'API_BROWSE',
    category: 'REQUEST',
    message: "The call must have a valid 'q', 'category_ids', 'epid' or 'gtin' query parameter.",
  }),
  limitRange: errors({
    errorId: 12006,
    domain: 'API_BROWSE',
    category: 'REQUEST',
    message: "The 'limit' value should be between 1 and 200 (inclusive).",
  }),
  limitNotInteger: errors({ errorId: 12007, domain: 'API_BROWSE', category: 'REQUEST', message: "The 'limit' value must be an integer value." }),
  offsetInvalid: errors({ errorId: 12005, domain: 'API_BROWSE', category: 'REQUEST', message: "The 'offset' value must be an integer." }),
  searchServerError: errors({
    errorId: 12000,
    domain: 'API_BROWSE',
    category: 'APPLICATION',
    message: 'There was a problem with an eBay internal system or process. Contact eBay developer support for assistance.',
  }),
  /** Not verified: the body eBay's gateway sends for an unknown resource. */
  notFound: errors({ errorId: 2002, domain: 'ACCESS', category: 'REQUEST', message: 'Resource not found' }),
} as const;

/** One listing in the fake catalogue; the server builds the eBay item summary from it. */
export interface FakeItem {
  /** Digits of the legacy item id; the REST id is `v1|<legacyId>|0`. */
  legacyId: string;
  title: string;
  /** Decimal string, e.g. "12.99". */
  price: string;
  /** Defaults to the marketplace's currency. */
  currency?: string;
  /** `null` leaves `image` out. */
  imageUrl?: string | null;
  /** Default "New" / "1000". */
  condition?: string;
  conditionId?: string;
  /** Default ["FIXED_PRICE"]. */
  buyingOptions?: string[];
  /** Merged last into the item summary (raw fields, overrides). */
  extra?: Record<string, unknown>;
}

/** Builds the catalogue for a search term that has no items set with `setItems`. */
export type CatalogueFn = (term: string, marketplace: EbayMarketplace) => FakeItem[];

/** `Basic base64(id:secret)`, the token request's Authorization value. */
export function basicAuth(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`, 'utf8').toString('base64')}`;
}

/** FNV-1a 32-bit hash of the text; the fake uses it for stable ids and `?hash=` suffixes. */
export function fnv1a(text: string): number {
  let h = 2166136261;
  for (const ch of text) h = Math.imul(h ^ (ch.codePointAt(0) ?? 0), 16777619) >>> 0;
  return h;
}

/** A stable 12-digit legacy id for (term, index). */
function legacyIdFor(term: string, index: number): string {
  return `1${String(fnv1a(`${term}#${index}`)).padStart(10, '0').slice(-10)}${index}`;
}

/**
 * Three listings derived from the term: a new fixed-price item, a used item that also takes
 * offers, and a new auction without an image. Prices in the marketplace's currency.
 */
export const defaultCatalogue: CatalogueFn = (term) => {
  const name = term.trim() || 'item';
  const id = (i: number) => legacyIdFor(name, i);
  return [
    {
      legacyId: id(1),
      title: `${name} - Brand New, Fast Shipping`,
      price: '24.99',
      imageUrl: `https://i.ebayimg.com/images/g/fake${id(1)}/s-l225.jpg`,
      condition: 'New',
      conditionId: '1000',
      buyingOptions: ['FIXED_PRICE'],
    },
    {
      legacyId: id(2),
      title: `${name} (Used, Good Condition)`,
      price: '12.99',
      imageUrl: `https://i.ebayimg.com/images/g/fake${id(2)}/s-l225.jpg`,
      condition: 'Used',
      conditionId: '3000',
      buyingOptions: ['FIXED_PRICE', 'BEST_OFFER'],
    },
    {
      legacyId: id(3),
      title: `${name} Bundle Lot`,
      price: '5.00',
      imageUrl: null,
      condition: 'New',
      conditionId: '1000',
      buyingOptions: ['AUCTION'],
    },
  ];
};

/** Parses a packed header (`a=1,b=x%2Cy`) into decoded name/value pairs. */
export function parsePackedHeader(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    const raw = part.slice(eq + 1).trim();
    let decoded = raw;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      // keep the raw value
    }
    out[name] = decoded;
  }
  return out;
}

/** The affiliate URL the fake returns for an item web URL (which already has a `?hash=` query). */
export function affiliateUrl(itemWebUrl: string, marketplace: EbayMarketplace, campaignId: string, referenceId?: string): string {
  const sep = itemWebUrl.includes('?') ? '&' : '?';
  return (
    `${itemWebUrl}${sep}mkevt=1&mkcid=1&mkrid=${marketplace.rotationId}` +
    `&campid=${encodeURIComponent(campaignId)}&customid=${encodeURIComponent(referenceId ?? '')}&toolid=${API_TOOL_ID}`
  );
}
