/**
 * The hand-made tables the models' features read are part of the models: each shipped model's
 * header keeps the SHA-256 of every table it was trained with (src/core/feature-tables.ts). A
 * table edited since then changes what the model sees without a retrain: this fails until
 * `npm run train` is run again.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MODEL_TABLES, tableHashes } from '../src/core/feature-tables.js';
import { modelPath } from '../src/core/model/load.js';
import type { ModelFile } from '../src/core/model/weights.js';

describe('feature tables', () => {
  it.each(Object.keys(MODEL_TABLES) as (keyof typeof MODEL_TABLES)[])('models/%s.json was trained with the tables as they are', (model) => {
    const { header } = JSON.parse(readFileSync(modelPath(model), 'utf8')) as ModelFile;
    expect(Object.keys(header.tables ?? {})).toEqual([...MODEL_TABLES[model]]);
    expect(header.tables).toEqual(tableHashes(model));
  });
});
