/**
 * The shape of eval/results.json and its run metadata. Numbers only: no dataset text.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import type { ChatsetScores } from './chatset.js';
import type { IntentScores } from './intent.js';
import type { OfferScores } from './offers.js';
import type { QueryNerScores } from './queryner.js';
import type { SpeedScores } from './speed.js';
import type { WnutScores } from './wnut.js';

import type { SafetyResult } from './safety.js';
import type { LanguageResult } from './languages.js';
import type { LanguagesReadResult } from './languages-read.js';
import type { RepliesResult } from './replies.js';
import type { RequestsResult } from './requests.js';
import type { CvRow } from './cv.js';

export const PARTS = ['chatset', 'wnut', 'social', 'queryner', 'intent', 'offers', 'speed', 'safety', 'languages', 'languages_read', 'replies', 'requests'] as const;
export type Part = (typeof PARTS)[number];

export interface RunMeta {
  date: string;
  node: string;
  machine: { cpu: string; cores: number; platform: string; release: string; arch: string; loadavg_1m: number };
  /** `git rev-parse --short HEAD`, null when git is unavailable. */
  commit: string | null;
  /** True when the working tree had uncommitted changes (figures may not match the commit). */
  dirty: boolean | null;
  parts: Part[];
  data_dir: string;
  duration_s?: number;
}

export interface TargetCheck {
  id: string;
  label: string;
  value: number | null;
  op: '>=' | '<=';
  target: number;
  pass: boolean;
}

export interface EvalResults {
  meta: RunMeta;
  targets: TargetCheck[];
  chatset?: { dev: ChatsetScores; dev_extra: ChatsetScores; combined: ChatsetScores };
  wnut?: WnutScores;
  /** TweetNER7 and WNUT-16 dev, scored as WNUT-17. */
  social?: { tweetner7: WnutScores; wnut16: WnutScores };
  offers?: OfferScores;
  queryner?: QueryNerScores;
  intent?: Record<string, IntentScores>;
  speed?: SpeedScores;
  /** Brand-safety topics on test/fixtures/safety (in the repository, not the shared data). */
  safety?: SafetyResult;
  /** The language gate: English kept, other languages kept from offers (test/fixtures/languages). */
  languages?: LanguageResult;
  /** German, French, Spanish and Italian read with their own models (data/languages, test/fixtures/languages). */
  languages_read?: LanguagesReadResult;
  /** Links in bot replies through the AI SDK middleware (data/replies). */
  replies?: Omit<RepliesResult, 'wrong'>;
  /** Purchase requests and their look-alikes at the API defaults (data/requests). */
  requests?: RequestsResult;
  /** The models' cross-validated figures beside their dev figures (from the model headers). */
  cv?: CvRow[];
}

function git(cwd: string, args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

export function runMeta(repoRoot: string, parts: Part[], dataDir: string): RunMeta {
  const cpus = os.cpus();
  const status = git(repoRoot, ['status', '--porcelain']);
  return {
    date: new Date().toISOString(),
    node: process.version,
    machine: {
      cpu: cpus[0]?.model.trim() ?? 'unknown',
      cores: cpus.length,
      platform: os.platform(),
      release: os.release(),
      arch: os.arch(),
      loadavg_1m: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
    },
    commit: git(repoRoot, ['rev-parse', '--short', 'HEAD']),
    dirty: status === null ? null : status.length > 0,
    parts,
    data_dir: dataDir,
  };
}
