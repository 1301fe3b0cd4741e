/**
 * The credential-free resolver: the retailer's own search page for the term, with the team's
 * tag (`https://www.amazon.<tld>/s?k=<term>&tag=<tag>`). It always answers, so it is the last
 * link of every chain and the whole chain of the embedded default.
 */
import type { Resolver } from './resolver.js';

export function searchLinkUrl(host: string, term: string, tag: string): string {
  return `https://${host}/s?${new URLSearchParams({ k: term, tag }).toString()}`;
}

export function searchLinkResolver(): Resolver {
  return {
    name: 'search-link',
    stage: 'search_link',
    async resolve(q) {
      return { source: 'search_link', url: searchLinkUrl(q.marketplace.host, q.search_term, q.tag), products: [] };
    },
  };
}
