/** The shared files the language gate trains on (scripts/train/language.ts), loaded. */
import { readFileSync } from 'node:fs';
import { isHeldOut, loadClinc, loadConll, loadLines, loadTweets, type DataFile } from '../eval/data.js';
import type { LanguageTrainingData } from './language.js';

export const LANGUAGE_FILES: DataFile[] = ['clinc', 'nqOpen', 'queryNerTrain', 'wnutTrain', 'tweets', 'tweetNerTrain', 'wnut16Train'];
export const TAXONOMY_FILE = 'lexicons/google-product-taxonomy.en-US.txt';

export function languageData(path: (f: DataFile) => string, taxonomyPath: string): LanguageTrainingData {
  const clinc = loadClinc(path('clinc'));
  const conll = (f: DataFile) => loadConll(path(f)).map((s) => s.text);
  return {
    english: {
      'CLINC150 train': { texts: [...clinc.train, ...clinc.oos_train].map(([t]) => t), vocab: true, clean: true },
      'NQ-open (not held out)': { texts: loadLines(path('nqOpen')).filter((t) => !isHeldOut(t)), vocab: true, clean: true },
      'QueryNER train': { texts: conll('queryNerTrain'), vocab: true, clean: true },
      'WNUT-17 train': { texts: conll('wnutTrain'), vocab: true, clean: false },
      'phone tweets (not held out)': { texts: loadTweets(path('tweets')).map((t) => t.text).filter((t) => !isHeldOut(t)), vocab: false, clean: false },
      'TweetNER7 train': { texts: conll('tweetNerTrain'), vocab: false, clean: false },
      'WNUT-16 train': { texts: conll('wnut16Train'), vocab: false, clean: false },
    },
    taxonomy: readFileSync(taxonomyPath, 'utf8').split('\n').filter((l) => /^\d+ - /.test(l)),
  };
}
