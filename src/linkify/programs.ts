/**
 * What depends on the affiliate programme of a link: the sentence of the closing disclosure, the
 * inline label after each eBay link, and the one-programme-per-text rule. The engine asks this at
 * the moment it places a link, so whole-text and streamed results agree (see engine.ts).
 */
import { EBAY_HOSTS } from '../core/resolve/ebay-sites.js';
import { isProgram, type Program } from '../core/resolve/programs.js';
import { DEFAULT_AD_LABEL, DEFAULT_DISCLOSURE, EBAY_DISCLOSURE, formatAdLabel } from './format.js';
import type { LinkFormat, LinkifyOptions } from './types.js';

const EBAY = new Set(EBAY_HOSTS);

/** The programme's own sentence (Amazon's Associates statement, eBay Partner Network's). */
export const PROGRAM_DISCLOSURES: Readonly<Record<Program, string>> = { amazon: DEFAULT_DISCLOSURE, ebay: EBAY_DISCLOSURE };

/**
 * The offer's `program` when it names one; otherwise read from the URL's host (an eBay site is
 * eBay, anything else Amazon: offers without `program` predate eBay, and `allowedHosts` decides
 * which hosts may link at all).
 */
export function programOf(program: unknown, url: string): Program {
  if (isProgram(program)) return program;
  let host = '';
  try {
    host = new URL(url).hostname;
  } catch {
    // An unparseable URL is refused by the host check anyway.
  }
  return EBAY.has(host) ? 'ebay' : 'amazon';
}

/**
 * The closing disclosure for the programmes in `programs` (in that order): one sentence each,
 * joined by a space, a sentence repeated only once; "" for none. `disclosure` is the option.
 */
export function disclosureText(disclosure: LinkifyOptions['disclosure'], programs: readonly Program[]): string {
  if (programs.length === 0 || disclosure === false) return '';
  // A string is the one sentence for any link, whatever its programme (as before eBay).
  if (typeof disclosure === 'string') return disclosure;
  const custom = disclosure !== null && typeof disclosure === 'object' ? disclosure : {};
  const sentences: string[] = [];
  for (const p of programs) {
    const own = custom[p];
    const s = own === false ? '' : typeof own === 'string' ? own : PROGRAM_DISCLOSURES[p];
    if (s !== '' && !sentences.includes(s)) sentences.push(s);
  }
  return sentences.join(' ');
}

/** One text's programme state: which programmes got links, in order, and the lock. */
export class ProgramPolicy {
  /** Programmes with a placed link, in order of first placement. */
  readonly placed: Program[] = [];
  private readonly label: string;
  private readonly mix: boolean;

  constructor(
    private readonly options: LinkifyOptions,
    private readonly format: LinkFormat,
  ) {
    const label = options.adLabel;
    this.label = label === false ? '' : typeof label === 'string' ? label : DEFAULT_AD_LABEL;
    this.mix = options.mixPrograms === true;
  }

  /** Whether a link of `program` may still be placed: always when mixing, else only the first programme's. */
  admits(program: Program): boolean {
    return this.mix || this.placed.length === 0 || this.placed[0] === program;
  }

  /**
   * Records a placed link; returns what follows it at once (eBay's inline ad label) and, when
   * this link fixes the text's programme, that programme (the caller drops the others' offers).
   */
  place(program: Program): { after: string; lock: Program | null } {
    const first = this.placed.length === 0;
    if (!this.placed.includes(program)) this.placed.push(program);
    // eBay wants the disclosure beside each link; Amazon's sentence at the end suffices.
    const after = program === 'ebay' && this.label !== '' ? formatAdLabel(this.format, this.label) : '';
    return { after, lock: first && !this.mix ? program : null };
  }

  /** The closing sentence(s), "" when no link was placed or the disclosure is off. */
  closing(): string {
    return disclosureText(this.options.disclosure, this.placed);
  }
}
