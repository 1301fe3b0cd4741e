/**
 * Cross-validated figures beside dev: `npm run train` chooses each model's settings by grouped
 * k-fold cross-validation on the training files and writes those figures (`cv_*`) into the
 * model's header next to its dev figures (read once, to report). The eval prints them side by
 * side; a gap over GAP is a finding to explain (docs/quality.md, "Cross-validation and dev").
 */
import { loadModel } from '../../src/core/model/load.js';
import { MODEL_LANGUAGES } from '../../src/core/language/languages.js';

export const GAP = 0.03;

export interface CvRow {
  model: string;
  figure: string;
  cv: number;
  dev: number | null;
  /** |cv − dev| > GAP. */
  finding: boolean;
}

/** The models whose headers carry cross-validated figures: English's, then each language's (models/<lang>/). */
export const CV_MODELS: readonly string[] = ['tagger', 'intent', 'reply', ...MODEL_LANGUAGES.flatMap((l) => [`${l}/tagger`, `${l}/intent`, `${l}/safety`])];

export function crossValidatedFigures(models: readonly string[] = CV_MODELS): CvRow[] {
  const rows: CvRow[] = [];
  for (const model of models) {
    const dev = loadModel(model).header.dev as Record<string, number>;
    for (const [key, cv] of Object.entries(dev)) {
      if (!key.startsWith('cv_')) continue;
      const figure = key.slice(3);
      const d = typeof dev[figure] === 'number' ? dev[figure]! : null;
      rows.push({ model, figure, cv, dev: d, finding: d !== null && Math.abs(cv - d) > GAP });
    }
  }
  return rows;
}
