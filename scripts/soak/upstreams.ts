/**
 * The fake upstreams of the soak (test/fakes: Amazon Creators API and Serper on 127.0.0.1) and the
 * fault phases switched on and off during the run: 500s, hangs, resets, slow answers, a failing
 * token endpoint, everything down at once. chatads must answer every request anyway (falling back
 * along its resolver chain within its budgets), never with a 5xx.
 */
import { COGNITO_PATH, SEARCH_PATH, latency, startCreatorsFake, type CreatorsFake } from '../../test/fakes/creators-server.js';
import { fault, startSerperFake, type SerperFake } from '../../test/fakes/serper-server.js';

/** The resolver budgets the soak's server runs with (ms): hangs are cut off at these. */
export const BUDGETS = { total_ms: 1500, retailer_api_ms: 500, shopping_search_ms: 600 };

export const CREDENTIAL = { id: 'soak-id', secret: 'soak-secret-value' };
export const SERPER_KEY = 'soak-serper-key';

export interface Phase {
  name: string;
  apply(u: Upstreams): void;
}

/** The cycle of fault phases; each lasts the run's fault period. */
export const PHASES: readonly Phase[] = [
  { name: 'none', apply: () => {} },
  { name: 'creators 500', apply: (u) => u.creators.setFaults(SEARCH_PATH, 500) },
  { name: 'serper 500', apply: (u) => u.serper.setFaults(fault.serverError()) },
  { name: 'creators hangs', apply: (u) => u.creators.setFaults(SEARCH_PATH, 'hang') },
  {
    name: 'creators resets, serper hangs',
    apply: (u) => {
      u.creators.setFaults(SEARCH_PATH, 'reset');
      u.serper.setFaults(fault.hang());
    },
  },
  {
    name: 'both slow (within budget)',
    apply: (u) => {
      u.creators.setFaults(SEARCH_PATH, latency(150));
      u.serper.setFaults(fault.latency(150));
    },
  },
  { name: 'creators slower than its budget', apply: (u) => u.creators.setFaults(SEARCH_PATH, latency(BUDGETS.retailer_api_ms + 400)) },
  {
    name: 'tokens expired, token endpoint 500',
    apply: (u) => {
      u.creators.expireTokens();
      u.creators.setFaults(COGNITO_PATH, 500);
    },
  },
  {
    name: 'everything down (hang + reset)',
    apply: (u) => {
      u.creators.setFaults(SEARCH_PATH, 'hang');
      u.creators.setFaults(COGNITO_PATH, 'reset');
      u.serper.setFaults(fault.reset());
    },
  },
];

export interface Upstreams {
  creators: CreatorsFake;
  serper: SerperFake;
  /** Back to normal answers everywhere. */
  clear(): void;
  /** Drops the fakes' request records (they would grow for the whole run). */
  forget(): void;
  close(): Promise<void>;
}

export async function startUpstreams(): Promise<Upstreams> {
  const creators = await startCreatorsFake({ credentials: [{ ...CREDENTIAL, version: '2.1' }] });
  const serper = await startSerperFake({ apiKey: SERPER_KEY, amazonHit: true });
  return {
    creators,
    serper,
    clear() {
      creators.setFaults(SEARCH_PATH, 'ok');
      creators.setFaults(COGNITO_PATH, 'ok');
      serper.setFaults(null);
    },
    forget() {
      creators.requests.length = 0;
      serper.requests.length = 0;
    },
    close: async () => {
      await Promise.all([creators.close(), serper.close()]);
    },
  };
}

/** The config file's upstream part: the retailer API and the shopping search on the fakes. */
export function upstreamConfig(u: Upstreams): Record<string, unknown> {
  return {
    retailer_api: [
      {
        credential_id: CREDENTIAL.id,
        credential_secret: CREDENTIAL.secret,
        version: '2.1',
        api_base_url: u.creators.url,
        token_url: `${u.creators.url}${COGNITO_PATH}`,
        marketplaces: ['US', 'GB', 'DE'],
        // The fake takes any rate; a real account's limit would only make more calls skip to the shopping search.
        tps: 1000,
      },
    ],
    shopping_search: { provider: 'serper', api_key: SERPER_KEY, base_url: u.serper.url },
    budgets: BUDGETS,
  };
}

/**
 * Runs the phases in turn, one every `periodMs`, until stopped; returns when each began
 * (seconds from the start) and its name.
 */
export interface PhaseLog {
  at_s: number;
  phase: string;
  /** Requests the fakes received during the phase (so a phase that changed nothing shows). */
  creators_requests: number;
  serper_requests: number;
}

export function cyclePhases(u: Upstreams, periodMs: number): { stop(): PhaseLog[] } {
  const log: PhaseLog[] = [];
  const start = performance.now();
  let i = 0;
  const count = (): void => {
    const last = log.at(-1);
    if (last) {
      last.creators_requests = u.creators.requests.length;
      last.serper_requests = u.serper.requests.length;
    }
    u.forget();
  };
  const switchPhase = (): void => {
    const phase = PHASES[i % PHASES.length]!;
    count();
    u.clear();
    phase.apply(u);
    log.push({ at_s: Math.round((performance.now() - start) / 100) / 10, phase: phase.name, creators_requests: 0, serper_requests: 0 });
    i++;
  };
  switchPhase();
  const timer = setInterval(switchPhase, periodMs);
  return {
    stop() {
      clearInterval(timer);
      count();
      u.clear();
      return log;
    },
  };
}
