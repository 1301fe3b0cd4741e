/**
 * `chatads teams create | set-plan | set-topics | set-programs | show`: teams in the SQLite data file that `chatads serve
 * --data FILE` serves.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { didYouMean } from '../core/did-you-mean.js';
import { limitsOf } from '../core/limits.js';
import { PLAN_NAMES, type PlanName } from '../core/plans.js';
import { ebayCampaignId, programsSchema, teamConfigSchema, type Team } from '../core/teams.js';
import { PROGRAMS, type Program } from '../core/resolve/programs.js';
import { FLOOR_TOPICS, PRESET_TOPICS, TOPICS } from '../core/safety/topics.js';
import { dayKey, monthKey } from '../core/clock.js';
import { dispatch, HELP_OPTION, parseOrHelp, printHelp, usage } from './args.js';
import { CliError, dataArg, dataOption, DEFAULT_DATA_FILE, messageOf, openData, reporting } from './shared.js';

export const TEAMS_HELP = `Usage: chatads teams <command> [options]

Teams in the SQLite data file that "chatads serve --data FILE" serves (a running server
sees a change on its next request).

Commands:
  create        Create a team
  set-plan      Change a team's plan
  set-topics    Choose the topics a team keeps ads away from, and its safety floor
  set-programs  Choose the affiliate programmes of a team's links, and its eBay campaign
  show          A team's settings, key ids and today's and this month's usage

Run "chatads teams <command> --help" for a command's options.
`;

export const TEAMS_CREATE_HELP = `Usage: chatads teams create --id ID [--plan P] [--tag CC=TAG ...] [--default-country CC]
                            [--programs LIST] [--ebay-campaign ID] [--inactive] [--data FILE]

Creates a team in the data file (the file is created when missing). Then make it a key:
  chatads keys create --team ID

Options:
  --id ID                 Team id (required, unique)
  --plan P                ${PLAN_NAMES.join(', ')} (default: free)
  --tag CC=TAG            Affiliate tag for an Amazon store, e.g. --tag US=acme-20 --tag GB=acme-21
                          (repeat for each store)
  --default-country CC    Served country when a request has neither country nor ip (default: US)
  --programs LIST         Affiliate programmes of its links, in order: ${PROGRAMS.join(', ')}, e.g. amazon,ebay
                          (default: amazon)
  --ebay-campaign ID      Its eBay Partner Network campaign id, 10 digits (default: the instance's)
  --inactive              Create it inactive: its keys are refused
${dataOption(26)}  -h, --help              Show this help
`;

export const TEAMS_SET_PLAN_HELP = `Usage: chatads teams set-plan --id ID --plan P [--data FILE]

Changes a team's plan (${PLAN_NAMES.join(', ')}); limits set on the team itself still apply.
A running server applies it on the next request.

Options:
  --id ID        Team id (required)
  --plan P       The new plan (required)
${dataOption()}  -h, --help     Show this help
`;

export const TEAMS_SET_TOPICS_HELP = `Usage: chatads teams set-topics --id ID [--topics LIST] [--safety-floor on|off] [--data FILE]

Sets the topics the team blocks: a message on one is refused like a blocked keyword (422
CONTENT_BLOCKED, not counted), and offers for products of that topic are dropped. Topics:
  ${PRESET_TOPICS.join(', ')}
  (and the floor's own ${FLOOR_TOPICS.join(', ')})
The safety floor (on unless turned off) answers a message about self-harm, abuse or a medical
emergency with no offer and does not bill it; docs/safety.md says why to leave it on.
A running server applies both on the next request.

Options:
  --id ID              Team id (required)
  --topics LIST        Comma-separated topics, e.g. gambling,alcohol; "" for none
  --safety-floor S     on or off
${dataOption(23)}  -h, --help           Show this help
`;

export const TEAMS_SET_PROGRAMS_HELP = `Usage: chatads teams set-programs --id ID [--programs LIST] [--ebay-campaign ID|default] [--data FILE]

Sets the affiliate programmes whose links the team's offers may carry, in order of preference:
amazon, ebay, or both (amazon,ebay: Amazon first, eBay when Amazon has no offer; ebay,amazon the
other way round). Each once, at least one. eBay links carry the team's eBay Partner Network
campaign id, or the instance's (ebay.campaign_id of the config) when the team has none
(docs/resolution.md, "Programmes"). A running server applies both on the next request.

Options:
  --id ID              Team id (required)
  --programs LIST      Comma-separated programmes in order, e.g. amazon,ebay (${PROGRAMS.join(', ')})
  --ebay-campaign ID   The team's eBay campaign id (10 digits); "default" for the instance's
${dataOption(23)}  -h, --help           Show this help
`;

export const TEAMS_SHOW_HELP = `Usage: chatads teams show --id ID [--json] [--data FILE]

Prints a team's plan, limits, rules, key ids (never a key) and its usage today and this
month (UTC).

Options:
  --id ID        Team id (required)
  --json         Print one JSON object
${dataOption()}  -h, --help     Show this help
`;

const DATA = { data: { type: 'string', default: DEFAULT_DATA_FILE } } as const;

export async function teamsCommand(args: string[]): Promise<number> {
  return dispatch(
    'teams',
    { create: teamsCreate, 'set-plan': teamsSetPlan, 'set-topics': teamsSetTopics, 'set-programs': teamsSetPrograms, show: teamsShow },
    TEAMS_HELP,
    args,
  );
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * The flags of a `teams` command (parseOrHelp: a mistake is exit 2 with the help); an unknown flag
 * close to a known one is named with it: `Unknown option '--tagg' (did you mean '--tag'?)`.
 */
function parseFlags<T extends Options>(args: string[], options: T, help: string): ReturnType<typeof parseOrHelp<T>> {
  const unknown = unknownFlag(args, options);
  const hint = unknown?.startsWith('--') ? didYouMean(unknown.slice(2), Object.keys(options), (name) => `'--${name}'`) : '';
  if (unknown && hint) return usage(`Unknown option '${unknown}'${hint}`, help);
  return parseOrHelp(args, options, help);
}

/** The first flag of `args` that `options` does not define, as written (`--tagg`, `-x`); null when there is none. */
function unknownFlag(args: string[], options: Options): string | null {
  const { tokens } = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true });
  const token = tokens.find((t) => t.kind === 'option' && !Object.hasOwn(options, t.name));
  return token?.kind === 'option' ? token.rawName : null;
}

/** `walmart, ebey (did you mean "ebay"?)`: the unknown names, each with the closest known one. */
function unknownNames(names: string[], known: readonly string[]): string {
  return names.map((name) => `${name}${didYouMean(name, known)}`).join(', ');
}

function isPlan(value: string): value is PlanName {
  return (PLAN_NAMES as string[]).includes(value);
}

/** `--programs LIST` as a list in the order given, or what is wrong with it, naming the bad value. */
function parsePrograms(value: string): Program[] | string {
  const list = value.split(',').map((p) => p.trim()).filter(Boolean);
  const parsed = programsSchema.safeParse(list);
  if (parsed.success) return parsed.data;
  const unknown = list.filter((p) => !(PROGRAMS as readonly string[]).includes(p));
  if (unknown.length > 0) return `--programs: unknown programme(s) ${unknownNames(unknown, PROGRAMS)}; programmes: ${PROGRAMS.join(', ')}`;
  if (list.length === 0) return `--programs: name at least one programme (got "${value}"); programmes: ${PROGRAMS.join(', ')}`;
  const twice = list.filter((p, i) => list.indexOf(p) !== i);
  if (twice.length > 0) return `--programs: ${[...new Set(twice)].join(', ')} listed twice; name each programme once`;
  return `--programs: ${parsed.error.issues[0]!.message}`;
}

/** `--ebay-campaign ID|default` as a campaign id (null: the instance's), or what is wrong with it. */
function parseCampaign(value: string, allowDefault: boolean): string | null | { error: string } {
  if (allowDefault && value.trim() === 'default') return null;
  const parsed = ebayCampaignId.safeParse(value);
  if (parsed.success) return parsed.data;
  return { error: `--ebay-campaign: "${value}" is not a campaign id: ${parsed.error.issues[0]!.message}${allowDefault ? '; "default" for the instance\'s' : ''}` };
}

/** How `set-programs` and `show` name a team's eBay campaign. */
function campaignText(id: string | null): string {
  return id === null ? "the instance's eBay campaign" : `eBay campaign ${id}`;
}

async function teamsCreate(args: string[]): Promise<number> {
  const help = TEAMS_CREATE_HELP;
  const values = parseFlags(
    args,
    {
      id: { type: 'string' },
      plan: { type: 'string', default: 'free' },
      tag: { type: 'string', multiple: true },
      'default-country': { type: 'string' },
      programs: { type: 'string' },
      'ebay-campaign': { type: 'string' },
      inactive: { type: 'boolean', default: false },
      ...DATA,
      ...HELP_OPTION,
    },
    help,
  );
  if (typeof values === 'number') return values;
  if (values.help) return printHelp(help);
  if (!values.id) return usage('chatads teams create: --id is required', help);
  if (!isPlan(values.plan)) return usage(`chatads teams create: --plan must be one of ${PLAN_NAMES.join(', ')}`, help);
  const tags: Record<string, string> = {};
  for (const tag of values.tag ?? []) {
    const eq = tag.indexOf('=');
    if (eq <= 0 || eq === tag.length - 1) return usage(`chatads teams create: --tag takes CC=TAG, e.g. US=acme-20 (got "${tag}")`, help);
    tags[tag.slice(0, eq).trim()] = tag.slice(eq + 1).trim();
  }
  const programs = values.programs === undefined ? undefined : parsePrograms(values.programs);
  if (typeof programs === 'string') return usage(`chatads teams create: ${programs}`, help);
  const campaign = values['ebay-campaign'] === undefined ? null : parseCampaign(values['ebay-campaign'], false);
  if (campaign !== null && typeof campaign === 'object') return usage(`chatads teams create: ${campaign.error}`, help);
  const parsed = teamConfigSchema.safeParse({
    id: values.id,
    plan: values.plan,
    active: !values.inactive,
    affiliate_tags: tags,
    default_country: values['default-country'] ?? null,
    ...(programs !== undefined ? { programs } : {}),
    ebay_campaign_id: campaign,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field =
      { id: '--id', affiliate_tags: '--tag', default_country: '--default-country', programs: '--programs', ebay_campaign_id: '--ebay-campaign' }[
        String(issue.path[0])
      ] ?? String(issue.path[0]);
    return usage(`chatads teams create: ${field}: ${issue.message}`, help);
  }
  const team = parsed.data;
  const file = values.data;
  return reporting('teams create', async () => {
    const store = openData(file, false);
    try {
      if (!(await store.createTeam(team))) throw new CliError(`team "${team.id}" already exists in ${file}`);
    } finally {
      await store.close();
    }
    process.stdout.write(
      `created team "${team.id}" (plan ${team.plan}${team.active ? '' : ', inactive'}) in ${file}\n` +
        `make it a key: chatads keys create --team ${team.id}${dataArg(file)}\n`,
    );
    return 0;
  });
}

async function teamsSetPlan(args: string[]): Promise<number> {
  const help = TEAMS_SET_PLAN_HELP;
  const values = parseFlags(args, { id: { type: 'string' }, plan: { type: 'string' }, ...DATA, ...HELP_OPTION }, help);
  if (typeof values === 'number') return values;
  if (values.help) return printHelp(help);
  if (!values.id) return usage('chatads teams set-plan: --id is required', help);
  if (!values.plan) return usage('chatads teams set-plan: --plan is required', help);
  const plan = values.plan;
  if (!isPlan(plan)) return usage(`chatads teams set-plan: --plan must be one of ${PLAN_NAMES.join(', ')}`, help);
  const { id, data: file } = values;
  return reporting('teams set-plan', async () => {
    const store = openData(file, true);
    try {
      if (!(await store.setPlan(id, plan))) throw new CliError(`no team "${id}" in ${file}`);
    } finally {
      await store.close();
    }
    process.stdout.write(`team "${id}" is now on the ${plan} plan\n`);
    return 0;
  });
}

async function teamsSetTopics(args: string[]): Promise<number> {
  const help = TEAMS_SET_TOPICS_HELP;
  const values = parseFlags(args, { id: { type: 'string' }, topics: { type: 'string' }, 'safety-floor': { type: 'string' }, ...DATA, ...HELP_OPTION }, help);
  if (typeof values === 'number') return values;
  if (values.help) return printHelp(help);
  if (!values.id) return usage('chatads teams set-topics: --id is required', help);
  if (values.topics === undefined && values['safety-floor'] === undefined) return usage('chatads teams set-topics: give --topics, --safety-floor or both', help);
  const floor = values['safety-floor'];
  if (floor !== undefined && floor !== 'on' && floor !== 'off') return usage('chatads teams set-topics: --safety-floor must be on or off', help);
  const topics = values.topics === undefined ? undefined : values.topics.split(',').map((t) => t.trim()).filter(Boolean);
  const unknown = topics?.filter((t) => !(TOPICS as readonly string[]).includes(t)) ?? [];
  if (unknown.length > 0) return usage(`chatads teams set-topics: unknown topic(s) ${unknownNames(unknown, TOPICS)}; topics: ${TOPICS.join(', ')}`, help);
  const { id, data: file } = values;
  return reporting('teams set-topics', async () => {
    const saved = await patchTeam(file, id, {
      ...(topics !== undefined ? { blocked_topics: TOPICS.filter((t) => topics.includes(t)) } : {}),
      ...(floor !== undefined ? { safety_floor: floor === 'on' } : {}),
    });
    process.stdout.write(`team "${id}": blocked topics ${saved.blocked_topics.join(', ') || 'none'}; safety floor ${saved.safety_floor ? 'on' : 'OFF'}\n`);
    return 0;
  });
}

async function teamsSetPrograms(args: string[]): Promise<number> {
  const help = TEAMS_SET_PROGRAMS_HELP;
  const values = parseFlags(args, { id: { type: 'string' }, programs: { type: 'string' }, 'ebay-campaign': { type: 'string' }, ...DATA, ...HELP_OPTION }, help);
  if (typeof values === 'number') return values;
  if (values.help) return printHelp(help);
  if (!values.id) return usage('chatads teams set-programs: --id is required', help);
  if (values.programs === undefined && values['ebay-campaign'] === undefined) return usage('chatads teams set-programs: give --programs, --ebay-campaign or both', help);
  const programs = values.programs === undefined ? undefined : parsePrograms(values.programs);
  if (typeof programs === 'string') return usage(`chatads teams set-programs: ${programs}`, help);
  const campaign = values['ebay-campaign'] === undefined ? undefined : parseCampaign(values['ebay-campaign'], true);
  if (campaign !== undefined && campaign !== null && typeof campaign === 'object') return usage(`chatads teams set-programs: ${campaign.error}`, help);
  const { id, data: file } = values;
  return reporting('teams set-programs', async () => {
    const saved = await patchTeam(file, id, {
      ...(programs !== undefined ? { programs } : {}),
      ...(campaign !== undefined ? { ebay_campaign_id: campaign } : {}),
    });
    process.stdout.write(`team "${id}": programmes ${saved.programs.join(', ')}; ${campaignText(saved.ebay_campaign_id)}\n`);
    return 0;
  });
}

/** Changes some fields of a stored team in one transaction; the saved team, or an error when there is none. */
async function patchTeam(file: string, id: string, patch: Partial<Team>): Promise<Team> {
  const store = openData(file, true);
  let saved: Team | null;
  try {
    saved = await store.updateTeam(id, (team) => (team ? { ...team, ...patch } : null));
  } finally {
    await store.close();
  }
  if (!saved) throw new CliError(`no team "${id}" in ${file}`);
  return saved;
}

/** What `teams show --json` prints. */
export interface TeamShow {
  id: string;
  plan: PlanName;
  active: boolean;
  /** The team's own overrides. */
  limits: Team['limits'];
  /** The limits that apply: the plan's with the overrides. */
  effective_limits: { daily: number; monthly: number; per_second: number; burst: number };
  affiliate_tags: Record<string, string>;
  default_country: string | null;
  blocked_keywords: string[];
  rejection_message: string | null;
  geo: Team['geo'];
  blocked_topics: Team['blocked_topics'];
  safety_floor: boolean;
  /** The affiliate programmes of the team's links, in order. */
  programs: Team['programs'];
  /** The team's eBay campaign id; null: the instance's (`ebay.campaign_id`). */
  ebay_campaign_id: string | null;
  keys: { id: string; revoked: boolean; created_at: string }[];
  usage: { day: string; daily: number; month: string; monthly: number };
}

async function teamsShow(args: string[]): Promise<number> {
  const help = TEAMS_SHOW_HELP;
  const values = parseFlags(args, { id: { type: 'string' }, json: { type: 'boolean', default: false }, ...DATA, ...HELP_OPTION }, help);
  if (typeof values === 'number') return values;
  if (values.help) return printHelp(help);
  if (!values.id) return usage('chatads teams show: --id is required', help);
  const { id, data: file } = values;
  return reporting('teams show', async () => {
    const store = openData(file, true);
    let show: TeamShow;
    try {
      const team = await store.getTeam(id);
      const keys = await store.listKeys(id);
      if (!team || !keys) throw new CliError(`no team "${id}" in ${file}`);
      const now = Date.now();
      const counts = await store.usage(id, now);
      const { keys: _hashes, ...fields } = team;
      show = {
        ...fields,
        effective_limits: limitsOf(team),
        keys: keys.map((k) => ({ id: k.id, revoked: k.revoked, created_at: new Date(k.created_at).toISOString() })),
        usage: { day: dayKey(now), daily: counts.daily, month: monthKey(now), monthly: counts.monthly },
      };
    } finally {
      await store.close();
    }
    process.stdout.write(values.json ? JSON.stringify(show) + '\n' : formatShow(show));
    return 0;
  });
}

function formatShow(t: TeamShow): string {
  const l = t.effective_limits;
  const list = (xs: string[]) => (xs.length ? xs.join(', ') : '-');
  const rows: [string, string][] = [
    ['plan', `${t.plan}${t.active ? '' : ' (inactive: its keys are refused)'}`],
    ['limits', `${l.daily}/day, ${l.monthly}/month, ${l.per_second}/s, burst ${l.burst}`],
    ['tags', list(Object.entries(t.affiliate_tags).map(([cc, tag]) => `${cc}=${tag}`))],
    ['default country', t.default_country ?? 'US'],
    ['blocked keywords', String(t.blocked_keywords.length)],
    ['geo', `allow ${list(t.geo.allow)}; deny ${list(t.geo.deny)}`],
    ['blocked topics', list(t.blocked_topics)],
    ['safety floor', t.safety_floor ? 'on' : 'OFF'],
    ['programmes', t.programs.join(', ')],
    ['eBay campaign', t.ebay_campaign_id ?? "the instance's (ebay.campaign_id)"],
    ['keys', list(t.keys.map((k) => (k.revoked ? `${k.id} (revoked)` : k.id)))],
    ['usage today', `${t.usage.daily} of ${l.daily} (${t.usage.day} UTC)`],
    ['usage this month', `${t.usage.monthly} of ${l.monthly} (${t.usage.month})`],
  ];
  return `team ${t.id}\n` + rows.map(([k, v]) => `  ${(k + ':').padEnd(18)}${v}\n`).join('');
}

