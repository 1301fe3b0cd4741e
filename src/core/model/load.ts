/**
 * Finds and reads a shipped model file (models/<name>.json at the package root, written by
 * `npm run train`). One copy in the package, read once on first use, rather than bundled into
 * every entry point of dist/.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeModel, type LinearModel, type ModelFile } from './weights.js';

export function modelPath(name: string): string {
  // dist/<chunk>.js and src/core/model/load.ts sit at different depths below the package root.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 6; up++) {
    const path = join(dir, 'models', `${name}.json`);
    if (existsSync(path)) return path;
    dir = dirname(dir);
  }
  throw new Error(`chatads: the model file models/${name}.json is missing from the package`);
}

/**
 * A hand-made feature table (models/tables/<name>.json: phrase lists the models' features read,
 * src/core/feature-tables.ts), parsed on each call: callers keep what they build from it.
 */
export function readTable<T>(name: string): T {
  return JSON.parse(readFileSync(modelPath(`tables/${name}`), 'utf8')) as T;
}

/**
 * A feature table with a copy per language: `const phrases = languageTable<T>('topic-phrases')`;
 * `phrases('en')` reads models/tables/topic-phrases.json, `phrases('de')` topic-phrases.de.json,
 * each once. Callers pass a language that has its own table, or 'en'.
 */
export function languageTable<T>(name: string): (language: string) => T {
  const read = new Map<string, T>();
  return (language) => {
    let table = read.get(language);
    if (table === undefined) {
      table = readTable<T>(language === 'en' ? name : `${name}.${language}`);
      read.set(language, table);
    }
    return table;
  };
}

export function loadModel(name: string): LinearModel {
  return decodeModel(JSON.parse(readFileSync(modelPath(name), 'utf8')) as ModelFile);
}

/**
 * The per-language form of `lazyModel`: `const taggers = lazyLanguageModel('tagger', toWeights)`;
 * `taggers('de')` reads models/de/tagger.json and makes its weights on the first call for 'de'.
 */
export function lazyLanguageModel<T>(name: string, make: (model: LinearModel, language: string) => T): (language: string) => T {
  const made = new Map<string, T>();
  return (language) => {
    let w = made.get(language);
    if (w === undefined) {
      w = make(loadModel(`${language}/${name}`), language);
      made.set(language, w);
    }
    return w;
  };
}

/** The one lazy loader: `const tagger = lazyModel('tagger')`; `tagger()` decodes on first call. */
export function lazyModel(name: string): () => LinearModel {
  let model: LinearModel | undefined;
  return () => (model ??= loadModel(name));
}
