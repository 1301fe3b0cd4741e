/**
 * The load of a crash run: C clients, each POSTing distinct messages (`message_analysis: fast`)
 * to its instance of `chatads serve` as fast as it is answered, one connection per request.
 * Every answer is recorded; a request whose connection was cut while the run killed its server
 * is counted apart ("cut"): the only requests that may be counted without a 200 reaching us.
 */
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { MESSAGES_PATH } from '../../src/core/http.js';

/** One request under way: flagged when its server is killed while it waits. */
interface InFlight {
  atKill: boolean;
}

/** A place the clients send to: up (an origin) or down (they wait for it). */
export class Instance {
  readonly name: string;
  readonly inFlight = new Set<InFlight>();
  #url: string | null = null;
  #waiters: (() => void)[] = [];
  #closed = false;

  constructor(name: string) {
    this.name = name;
  }

  up(url: string): void {
    this.#url = url;
    for (const w of this.#waiters.splice(0)) w();
  }

  /** Before a kill: no new requests; the ones under way are flagged. Returns how many. */
  down(): number {
    this.#url = null;
    for (const r of this.inFlight) r.atKill = true;
    return this.inFlight.size;
  }

  /** Releases the waiting clients for good. */
  close(): void {
    this.#closed = true;
    for (const w of this.#waiters.splice(0)) w();
  }

  /** The origin once up; null once closed. */
  async ready(): Promise<string | null> {
    while (!this.#closed && this.#url === null) await new Promise<void>((r) => this.#waiters.push(r));
    return this.#closed ? null : this.#url;
  }
}

export interface Tally {
  sent: number;
  /** 200 answers with `data.billed`: each says it was counted. */
  answered: number;
  /** `meta.usage.monthly_requests` of each counted 200: the team's count right after it. */
  values: number[];
  /** 200 answers not billed (withheld by the team's rules): counted by nobody, and none expected. */
  unbilled: number;
  /** Answers by status (and error code, when not 200). */
  statuses: Record<string, number>;
  /** Counted 200s per instance. */
  answeredBy: Record<string, number>;
  /** Connection cut (reset, hang-up) of a request under way when its server was killed. */
  cut: number;
  /** Connection refused: the request never reached a server. */
  refused: number;
  /** Any other failure to get an answer (a cut with no kill, a timeout): not allowed to be counted. */
  otherErrors: number;
  /** `failure: closed` answers (503) of requests that reached a server while its store was away. */
  unavailable: number;
  /** Statuses of requests sent while `outage` was set (e.g. while redis-server was down). */
  duringOutage: Record<string, number>;
  /** Counted 200s of requests sent while `outage` was set: their count, when they were sent and answered (performance.now()). */
  outageServed: { value: number; sentAt: number; at: number }[];
  outage: boolean;
}

export function newTally(): Tally {
  return {
    sent: 0,
    answered: 0,
    values: [],
    unbilled: 0,
    statuses: {},
    answeredBy: {},
    cut: 0,
    refused: 0,
    otherErrors: 0,
    unavailable: 0,
    duringOutage: {},
    outageServed: [],
    outage: false,
  };
}

type Reply = { status: number; body: string } | { error: string };

/** One POST on a connection of its own (no keep-alive: a refused connection never reached a server). */
export function post(url: string, key: string, message: string, timeoutMs = 15_000): Promise<Reply> {
  const body = JSON.stringify({ message, message_analysis: 'fast' });
  return new Promise((resolve) => {
    let settled = false;
    const settle = (r: Reply) => {
      if (!settled) (settled = true), resolve(r);
    };
    const req = request(
      url + MESSAGES_PATH,
      {
        method: 'POST',
        agent: false,
        timeout: timeoutMs,
        headers: { 'content-type': 'application/json', 'x-api-key': key, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => settle({ status: res.statusCode ?? 0, body: text }));
        res.on('error', (e: NodeJS.ErrnoException) => settle({ error: e.code ?? 'ECONNRESET' }));
        res.on('close', () => settle({ error: 'ECONNRESET' }));
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    req.on('error', (e: NodeJS.ErrnoException) => settle({ error: e.code ?? e.message }));
    req.end(body);
  });
}

const TEMPLATES = ['Is the {b} X{n} {p} any good?', 'Thinking about the {b} X{n} {p}, is it worth it?', 'Should I buy a {b} X{n} {p} for my office?'];
const BRANDS = ['Zorvex', 'Nimbus', 'Kestrel', 'Orbit', 'Acme'];
const PRODUCTS = ['usb c charger', 'yoga mat', 'office chair', 'stand mixer', 'air purifier', 'webcam', 'blender', 'desk lamp'];

/** Distinct product questions (a serial number in each): the result cache never answers one. */
export function messages(rand: () => number, tag: string): () => string {
  let serial = 0;
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rand() * a.length)]!;
  return () => pick(TEMPLATES).replace('{b}', pick(BRANDS)).replace('{p}', pick(PRODUCTS)).replace('{n}', `${tag}${++serial}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function record(tally: Tally, instance: Instance, flight: InFlight, reply: Reply, outage: boolean, sentAt: number): void {
  if ('error' in reply) {
    if (reply.error === 'ECONNREFUSED') tally.refused++;
    else if (flight.atKill) tally.cut++;
    else tally.otherErrors++;
    const label = `error ${reply.error}${flight.atKill ? ' (killed)' : ''}`;
    tally.statuses[label] = (tally.statuses[label] ?? 0) + 1;
    if (outage) tally.duringOutage[label] = (tally.duringOutage[label] ?? 0) + 1;
    return;
  }
  let label = String(reply.status);
  let parsed: { data?: { billed?: boolean } | null; error?: { code?: string } | null; meta?: { usage?: { monthly_requests?: number } } } = {};
  try {
    parsed = JSON.parse(reply.body);
  } catch {
    label += ' (not JSON)';
  }
  if (reply.status === 200) {
    if (parsed.data?.billed === true) {
      tally.answered++;
      tally.values.push(Number(parsed.meta?.usage?.monthly_requests));
      if (outage) tally.outageServed.push({ value: tally.values.at(-1)!, sentAt, at: performance.now() });
      tally.answeredBy[instance.name] = (tally.answeredBy[instance.name] ?? 0) + 1;
    } else tally.unbilled++;
  } else if (parsed.error?.code) label += ` ${parsed.error.code}`;
  if (reply.status === 503) tally.unavailable++;
  tally.statuses[label] = (tally.statuses[label] ?? 0) + 1;
  if (outage) tally.duringOutage[label] = (tally.duringOutage[label] ?? 0) + 1;
}

export interface Load {
  /** Stops sending, waits for every request under way to end. */
  stop(): Promise<void>;
}

/** Client i sends to instances[i % instances.length], waiting while it is down. */
export function startClients(o: { clients: number; instances: Instance[]; key: string; next: () => string; tally: Tally }): Load {
  let stopping = false;
  const client = async (i: number): Promise<void> => {
    const instance = o.instances[i % o.instances.length]!;
    while (!stopping) {
      const url = await instance.ready();
      if (url === null || stopping) break;
      const flight: InFlight = { atKill: false };
      const outage = o.tally.outage;
      const sentAt = performance.now();
      instance.inFlight.add(flight);
      o.tally.sent++;
      const reply = await post(url, o.key, o.next());
      instance.inFlight.delete(flight);
      record(o.tally, instance, flight, reply, outage, sentAt);
      // Not a busy loop against a server that is gone or refusing.
      if ('error' in reply) await sleep(5);
      else if (reply.status === 503) await sleep(20);
    }
  };
  const running = Array.from({ length: o.clients }, (_, i) => client(i));
  return {
    async stop() {
      stopping = true;
      for (const inst of o.instances) inst.close();
      await Promise.all(running);
    },
  };
}

export interface Verdict {
  /** Counted 200s received. */
  answered: number;
  /** The team's count moved from `before` to `after` over the phase. */
  counted: number;
  /** Answered but not in the final count: a repeated count value (one was lost and handed out again) or one outside (before, after]. Must be 0. */
  lost: number;
  /** Counted without a 200 reaching a client: must be at most `allowance`. */
  inFlightCounted: number;
  /** Requests that may have been counted unanswered: connections cut by a kill (+ 503s while the store was away, for Redis). */
  allowance: number;
  ok: boolean;
}

/**
 * Compares the counted 200s of a quiesced phase with the team's count before and after it. Each
 * counted answer carries the count right after it was admitted: in a store that keeps every
 * admission, those values are distinct and lie in (before, after]; the values of (before, after]
 * no answer carries are the requests counted without a 200.
 */
export function judge(values: number[], before: number, after: number, allowance: number): Verdict {
  const seen = new Set<number>();
  let lost = 0;
  for (const v of values) {
    if (!Number.isInteger(v) || v <= before || v > after || seen.has(v)) lost++;
    else seen.add(v);
  }
  const counted = after - before;
  const inFlightCounted = counted - seen.size;
  return { answered: values.length, counted, lost, inFlightCounted, allowance, ok: lost === 0 && inFlightCounted >= 0 && inFlightCounted <= allowance };
}
