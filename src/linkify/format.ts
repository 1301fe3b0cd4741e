/** The three link formats, the disclosure paragraph, and the escaping of everything inserted. */
import type { LinkFormat } from './types.js';

/** Amazon's Associates statement: the disclosure of a text with Amazon links. */
export const DEFAULT_DISCLOSURE = 'As an Amazon Associate I earn from qualifying purchases.';
/**
 * eBay Partner Network's statement: the disclosure of a text with eBay links. eBay prescribes no wording, only that the disclosure is clear and beside the link (its
 * Affiliate Disclosure FAQ); this mirrors the Associates sentence and a suggestion reported from
 * the Network Agreement (docs/compliance.md).
 */
export const EBAY_DISCLOSURE = 'As an eBay Partner Network affiliate, I earn from qualifying purchases.';
/** Written right after each eBay link: eBay wants the disclosure beside the link itself. */
export const DEFAULT_AD_LABEL = '(#ad)';

/** The `rel` of HTML links: paid (sponsored), not endorsed (nofollow), no window.opener. */
export const LINK_REL = 'sponsored nofollow noopener';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes `& < > " '`: safe in element content and in quoted attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/**
 * Backslash-escapes the characters that could end the link text, open a construct inside it, or
 * break a table row: `\ ` * _ [ ] < > | ~`.
 */
export function escapeMarkdownText(s: string): string {
  return s.replace(/[\\`*_[\]<>|~]/g, '\\$&');
}

/**
 * A Markdown link destination: parentheses, backslashes, angle brackets and white space are
 * percent-encoded so the destination cannot end early (the URL is already WHATWG-serialised, so
 * it is ASCII).
 */
export function markdownUrl(href: string): string {
  return href.replace(/[()\\<>\s]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'));
}

export function formatLink(format: LinkFormat, words: string, href: string, target: string | undefined): string {
  switch (format) {
    case 'html': {
      const t = target ? ` target="${escapeHtml(target)}"` : '';
      return `<a href="${escapeHtml(href)}" rel="${LINK_REL}"${t}>${escapeHtml(words)}</a>`;
    }
    case 'text':
      return `${words} (${href})`;
    default:
      return `[${escapeMarkdownText(words)}](${markdownUrl(href)})`;
  }
}

/** The inline label after a link: one space, then the label (escaped in html, as written otherwise). */
export function formatAdLabel(format: LinkFormat, label: string): string {
  return ' ' + (format === 'html' ? escapeHtml(label) : label);
}

/**
 * What follows the text when a link was placed: a closing fence when the text ends inside a
 * fenced code block (markdown and html), then a blank line, then the disclosure (in html a
 * `<p>` with the disclosure escaped; in markdown and text as written).
 */
export function formatClosing(format: LinkFormat, disclosure: string, lastChars: string, openFence: string | null): string {
  let s = '';
  if (openFence !== null && format !== 'text') {
    s += (lastChars.endsWith('\n') ? '' : '\n') + openFence + '\n';
  }
  const tail = (lastChars + s).slice(-2);
  s += tail === '\n\n' ? '' : tail.endsWith('\n') ? '\n' : '\n\n';
  s += format === 'html' ? `<p>${escapeHtml(disclosure)}</p>` : disclosure;
  return s;
}
