// @ts-check
/**
 * The playground page: sends the form to POST /v1/chatads/messages on this server and shows the
 * envelope. Untrusted text (server messages, offers, the reply) reaches the page only through
 * textContent, attributes set one by one, or linkify's escaped HTML, re-built node by node.
 */
import { linkify } from '/playground/linkify.js';

const API_PATH = '/v1/chatads/messages';
const LINK_REL = 'sponsored nofollow noopener';
const INTENTS = [
  { value: 'any', text: 'any (no filter)' },
  { value: 'low', text: 'low (score ≥ 0.2)' },
  { value: 'medium', text: 'medium (score ≥ 0.5)' },
  { value: 'high', text: 'high (score ≥ 0.7)' },
];
const REASONS = {
  no_product_detected: 'no product mention was found in the message',
  intent_below_threshold: 'the purchase intent is below the minimum',
  no_affiliate_link: 'no affiliate link could be made for the products found',
  sensitive_topic: 'the message is on a sensitive topic (safety floor or a topic this account blocks): no ad',
  unsupported_language: 'the message is in a language chatads does not read',
};
const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });

/** @param {string} id */
function $(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing`);
  return el;
}

const form = /** @type {HTMLFormElement} */ ($('request-form'));
const message = /** @type {HTMLTextAreaElement} */ ($('message'));
const minIntent = /** @type {HTMLInputElement} */ ($('min_intent'));
const minIntentValue = /** @type {HTMLOutputElement} */ ($('min-intent-value'));
const apiKey = /** @type {HTMLInputElement} */ ($('api_key'));
const showKey = /** @type {HTMLInputElement} */ ($('show_key'));
const keyHint = $('key-hint');
const send = /** @type {HTMLButtonElement} */ ($('send'));
const alertBox = $('alert');
const resultBody = $('result-body');
const summary = $('summary');
const offersList = $('offers');
const usageBox = $('usage');
const languagesBox = $('languages');
const envelopeBox = /** @type {HTMLDetailsElement} */ ($('envelope'));
const envelopeJson = $('envelope-json');
const reply = /** @type {HTMLTextAreaElement} */ ($('reply'));
const preview = $('preview');

/** Offers of the last successful response, for the preview. @type {{ link_text: string, url?: string }[]} */
let lastOffers = [];
/** Messages answered on this page so far, by language: how many, and how many got an offer. @type {Map<string, { messages: number, withOffers: number }>} */
const tally = new Map();
/** The reply follows the message until the user types in it. */
let replyEdited = false;

// ---- Form ------------------------------------------------------------------------------------

function showIntent() {
  const level = INTENTS[Number(minIntent.value)] ?? INTENTS[1];
  minIntentValue.textContent = level.text;
  minIntent.setAttribute('aria-valuetext', level.text);
}

/** The request body, with exactly the field names the API validates. */
function requestBody() {
  const data = new FormData(form);
  /** @type {Record<string, unknown>} */
  const body = {
    message: String(data.get('message') ?? ''),
    message_analysis: String(data.get('message_analysis')),
    min_intent: (INTENTS[Number(minIntent.value)] ?? INTENTS[1]).value,
    fill_priority: String(data.get('fill_priority')),
  };
  const country = String(data.get('country') ?? '').trim();
  if (country) body.country = country;
  const maxOffers = String(data.get('max_offers') ?? '').trim();
  // Sent as typed (a number when it is one): the server says what is wrong with it.
  if (maxOffers) body.max_offers = Number.isFinite(Number(maxOffers)) ? Number(maxOffers) : maxOffers;
  return body;
}

async function loadConfig() {
  try {
    const res = await fetch('/playground/config.json', { cache: 'no-store' });
    const config = await res.json();
    if (typeof config.demoKey === 'string' && config.demoKey) {
      if (!apiKey.value) apiKey.value = config.demoKey;
      keyHint.textContent = 'Filled in with this server\u2019s playground key for the demo team (a new one at each start).';
      return;
    }
  } catch {
    // No settings: the page still works with a key typed in.
  }
  keyHint.textContent =
    'This server hands out no key here (it serves a config file, or the page is not opened as localhost): ' +
    'paste a key of one of its teams, e.g. one made with \u201cchatads keys create --team ID\u201d.';
}

// ---- Sending ---------------------------------------------------------------------------------

/** @param {SubmitEvent | Event} event */
async function submit(event) {
  event.preventDefault();
  if (send.disabled) return;
  const body = requestBody();
  /** @type {Record<string, string>} */
  const headers = { 'content-type': 'application/json' };
  const key = apiKey.value.trim();
  if (key) headers['x-api-key'] = key;

  send.disabled = true;
  send.textContent = 'Sending…';
  resultBody.setAttribute('aria-busy', 'true');
  alertBox.replaceChildren();
  const started = performance.now();
  try {
    /** @type {Response} */
    let res;
    try {
      res = await fetch(API_PATH, { method: 'POST', headers, body: JSON.stringify(body), cache: 'no-store' });
    } catch {
      showFailure('Could not reach the server. Is \u201cchatads serve\u201d still running?', null);
      return;
    }
    let envelope;
    try {
      envelope = await res.json();
    } catch {
      showFailure(`The server answered HTTP ${res.status} without a JSON envelope.`, null);
      return;
    }
    const ms = Math.round(performance.now() - started);
    if (envelope && envelope.error) showFailure(describeError(envelope.error, res, body), envelope);
    else if (envelope && envelope.data) showSuccess(envelope, ms, String(body.message));
    else showFailure(`The server answered HTTP ${res.status} with an unexpected body.`, envelope);
  } finally {
    send.disabled = false;
    send.textContent = 'Send';
    resultBody.setAttribute('aria-busy', 'false');
  }
}

// ---- Errors ----------------------------------------------------------------------------------

/** "in 3 h 12 min", "in 40 s": a Retry-After in seconds, for people. @param {string | null} header */
function retryIn(header) {
  const s = Number(header);
  if (!header || !Number.isFinite(s) || s < 0) return '';
  if (s < 90) return ` Try again in ${Math.max(1, Math.round(s))} s.`;
  const h = Math.floor(s / 3600);
  const m = Math.round((s % 3600) / 60);
  return ` Try again in ${h ? `${h} h ` : ''}${m} min.`;
}

/**
 * A readable sentence for an error envelope.
 * @param {{ code: string, message: string, details?: Record<string, any> }} error
 * @param {Response} res
 * @param {Record<string, unknown>} body
 */
function describeError(error, res, body) {
  const details = error.details ?? {};
  const retry = retryIn(res.headers.get('retry-after'));
  switch (error.code) {
    case 'MISSING_API_KEY':
      return 'No API key: fill in the API key field.';
    case 'INVALID_API_KEY':
      return 'The API key was refused: it is unknown, revoked, or its team is disabled. Check the API key field.';
    case 'DAILY_QUOTA_EXCEEDED':
      return `This team\u2019s daily quota is used up (${details.daily_usage ?? '?'} of ${details.daily_limit ?? '?'} requests; it resets at 00:00 UTC).${retry}`;
    case 'MONTHLY_QUOTA_EXCEEDED':
      return `This team\u2019s monthly quota is used up (${details.monthly_usage ?? '?'} of ${details.monthly_limit ?? '?'} requests).${retry}`;
    case 'RATE_LIMIT_EXCEEDED':
      return `Too many requests per second for this team (at most ${details.per_second ?? '?'} per second).${retry || ' Wait a moment and send again.'}`;
    case 'MESSAGE_TOO_LONG':
      return `The message is too long: at most ${details.max_length ?? 5000} characters, this one has ${[...String(body.message)].length}.`;
    case 'CONTENT_BLOCKED':
      return `The team\u2019s blocked keywords refused this message: \u201c${error.message}\u201d`;
    case 'GEO_RESTRICTED':
      return `This team does not serve ${details.country ? `country ${details.country}` : 'that country'}. Try another country.`;
    case 'INVALID_REQUEST': {
      const issues = Array.isArray(details.issues) ? details.issues : [];
      const list = issues.map((/** @type {any} */ i) => `${i.path || 'body'}: ${i.message}`).join('; ');
      return `The request is invalid${list ? `: ${list}` : '.'}`;
    }
    case 'SERVICE_UNAVAILABLE':
      return `The service cannot reach its store right now.${retry}`;
    default:
      return `${error.message} (${error.code}, HTTP ${res.status})`;
  }
}

/** @param {string} text @param {any} envelope */
function showFailure(text, envelope) {
  const title = document.createElement('strong');
  title.textContent = 'Request refused. ';
  alertBox.replaceChildren(title, document.createTextNode(text));
  summary.textContent = 'No result: see the message above.';
  offersList.replaceChildren();
  showUsage(envelope?.meta?.usage);
  showEnvelope(envelope);
  lastOffers = [];
  renderPreview();
}

// ---- Results ---------------------------------------------------------------------------------

/** @param {any} envelope @param {number} ms @param {string} sent */
function showSuccess(envelope, ms, sent) {
  const data = envelope.data;
  const parts = [`${data.returned} of ${data.requested} offer${data.requested === 1 ? '' : 's'} (${data.status.replaceAll('_', ' ')})`];
  if (!data.matched) {
    const why = REASONS[/** @type {keyof typeof REASONS} */ (data.reason)] ?? data.reason ?? 'no match';
    parts.push(`no match: ${why}${data.min_intent_required ? ` (minimum: ${data.min_intent_required})` : ''}`);
  }
  if (typeof data.intent_score === 'number') parts.push(`message intent ${data.intent_score.toFixed(2)} (${data.intent_level})`);
  parts.push(`extraction: ${data.extraction_method}`);
  if (envelope.meta?.country) parts.push(`country ${envelope.meta.country}`);
  parts.push(`${ms} ms`);
  const language = typeof data.language === 'string' ? data.language : 'und';
  summary.replaceChildren(languageBadge(language), document.createTextNode(parts.join(' · ')));
  offersList.replaceChildren(...data.offers.map(offerCard));
  const counts = tally.get(language) ?? { messages: 0, withOffers: 0 };
  counts.messages++;
  if (data.returned > 0) counts.withOffers++;
  tally.set(language, counts);
  showTally();
  showUsage(envelope.meta?.usage);
  showEnvelope(envelope);
  lastOffers = data.offers;
  if (!replyEdited) reply.value = sent;
  renderPreview();
}

/** @param {string} tag @param {string} [className] @param {string} [text] */
function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** One offer as a card. @param {any} offer @param {number} index */
function offerCard(offer, index) {
  const card = el('li', 'offer');
  const title = el('h3', 'offer-title', offer.link_text);
  card.append(title);
  if (typeof offer.url === 'string' && /^https:\/\//i.test(offer.url)) {
    const link = /** @type {HTMLAnchorElement} */ (el('a', 'offer-url', offer.url));
    link.href = offer.url;
    link.rel = LINK_REL;
    card.append(el('p', 'offer-link'));
    card.lastElementChild?.append(link);
  } else {
    card.append(el('p', 'offer-link', 'No URL (resolution_mode none, or no link could be made).'));
  }
  const facts = el('dl', 'offer-facts');
  /** @param {string} name @param {string} value */
  const fact = (name, value) => facts.append(el('dt', '', name), el('dd', '', value));
  fact('Brand', offer.term_brand ?? offer.products?.[0]?.brand_name ?? '\u2014');
  // The taxonomy path is long; its last step says enough (the envelope has the rest).
  fact('Category', offer.category ? String(offer.category).split(' > ').at(-1) ?? '' : '\u2014');
  fact('Search term', offer.search_term ?? '\u2014');
  fact('Source', offer.resolution_source ? String(offer.resolution_source).replaceAll('_', ' ') : '\u2014');
  card.append(facts);
  card.append(intentBar(offer, index));
  if (offer.marketing_message) card.append(el('p', 'offer-marketing', offer.marketing_message));
  return card;
}

/** The intent score as a bar, its value and its level. @param {any} offer @param {number} index */
function intentBar(offer, index) {
  const wrap = el('div', 'intent');
  const id = `intent-${index}`;
  const label = el('span', 'intent-label', 'Intent');
  label.id = id;
  wrap.append(label);
  if (typeof offer.intent_score !== 'number') {
    wrap.append(el('span', 'intent-value', 'not scored'));
    return wrap;
  }
  const meter = /** @type {HTMLMeterElement} */ (el('meter', 'intent-meter'));
  meter.min = 0;
  meter.max = 1;
  meter.low = 0.5;
  meter.high = 0.7;
  meter.optimum = 1;
  meter.value = offer.intent_score;
  meter.setAttribute('aria-labelledby', id);
  const text = `${offer.intent_score.toFixed(2)} (${String(offer.intent_level ?? '').replaceAll('_', ' ')})`;
  meter.textContent = text;
  wrap.append(meter, el('span', 'intent-value', text));
  return wrap;
}

/** A language code's English name ("German"); the code itself when the browser has none. @param {string} code */
function languageName(code) {
  if (code === 'und') return 'undetermined (too little text to tell)';
  try {
    return languageNames.of(code) ?? code;
  } catch {
    return code;
  }
}

/** The message's language as a small badge: the code, its name as the title. @param {string} code */
function languageBadge(code) {
  const badge = el('abbr', 'lang-badge', code);
  badge.title = languageName(code);
  return badge;
}

/** The messages of this page so far by language (most first, und last): messages, with offers. */
function showTally() {
  const rows = [...tally].sort((a, b) => Number(a[0] === 'und') - Number(b[0] === 'und') || b[1].messages - a[1].messages || a[0].localeCompare(b[0]));
  const table = el('table', 'lang-tally');
  const head = el('tr');
  for (const text of ['Language', 'Messages', 'With offers']) {
    const th = el('th', '', text);
    th.setAttribute('scope', 'col');
    head.append(th);
  }
  const thead = el('thead');
  const tbody = el('tbody');
  thead.append(head);
  table.append(el('caption', '', 'Languages so far'), thead, tbody);
  for (const [code, counts] of rows) {
    const tr = el('tr');
    tr.dataset.language = code;
    const th = el('th');
    th.setAttribute('scope', 'row');
    th.append(languageBadge(code));
    tr.append(th, el('td', '', String(counts.messages)), el('td', '', String(counts.withOffers)));
    tbody.append(tr);
  }
  languagesBox.replaceChildren(table);
  languagesBox.hidden = rows.length === 0;
}

/** @param {any} usage */
function showUsage(usage) {
  if (!usage) {
    usageBox.hidden = true;
    return;
  }
  const n = (/** @type {number} */ v) => Number(v).toLocaleString('en-US');
  const list = el('dl', 'usage-list');
  list.append(
    el('dt', '', 'Today'),
    el('dd', 'usage-daily', `${n(usage.daily_requests)} of ${n(usage.daily_limit)} requests used`),
    el('dt', '', 'This month'),
    el('dd', 'usage-monthly', `${n(usage.monthly_requests)} of ${n(usage.monthly_limit)} requests used`),
  );
  usageBox.replaceChildren(el('h3', 'usage-title', usage.is_free_tier ? 'Usage (free plan)' : 'Usage'), list);
  usageBox.hidden = false;
}

/** @param {any} envelope */
function showEnvelope(envelope) {
  envelopeBox.hidden = !envelope;
  envelopeJson.textContent = envelope ? JSON.stringify(envelope, null, 2) : '';
}

// ---- Preview ---------------------------------------------------------------------------------

/** linkify's html format takes its input as HTML-safe already: the reply is plain text, so escape it. @param {string} s */
function escapeText(s) {
  return s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/**
 * Builds the preview from linkify's HTML, keeping only what linkify makes (text, <a> with an
 * https href, the disclosure's <p>); parsed in an inert <template>, so nothing runs or loads.
 * @param {Node} from @param {Node} to
 */
function copySafe(from, to) {
  for (const node of from.childNodes) {
    if (node.nodeType === Node.TEXT_NODE) {
      to.appendChild(document.createTextNode(node.textContent ?? ''));
    } else if (node instanceof Element && node.localName === 'a' && /^https:\/\//i.test(node.getAttribute('href') ?? '')) {
      const a = document.createElement('a');
      a.href = node.getAttribute('href') ?? '';
      a.rel = LINK_REL;
      a.textContent = node.textContent;
      to.appendChild(a);
    } else if (node instanceof Element && node.localName === 'p') {
      const p = document.createElement('p');
      copySafe(node, p);
      to.appendChild(p);
    } else {
      to.appendChild(document.createTextNode(node.textContent ?? ''));
    }
  }
}

function renderPreview() {
  const text = reply.value;
  if (!text.trim()) {
    preview.replaceChildren(el('span', 'hint', 'Type a reply to preview it.'));
    return;
  }
  const offers = lastOffers.filter((o) => typeof o.url === 'string').map((o) => ({ link_text: o.link_text, url: String(o.url) }));
  const { text: html } = linkify(escapeText(text), offers, { format: 'html' });
  const template = document.createElement('template');
  template.innerHTML = html;
  const out = document.createDocumentFragment();
  copySafe(template.content, out);
  preview.replaceChildren(out);
}

// ---- Wiring ----------------------------------------------------------------------------------

form.addEventListener('submit', submit);
form.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    form.requestSubmit();
  }
});
minIntent.addEventListener('input', showIntent);
showKey.addEventListener('change', () => {
  apiKey.type = showKey.checked ? 'text' : 'password';
});
message.addEventListener('input', () => {
  if (!replyEdited) {
    reply.value = message.value;
    renderPreview();
  }
});
reply.addEventListener('input', () => {
  replyEdited = true;
  renderPreview();
});

showIntent();
reply.value = message.value;
renderPreview();
loadConfig();
