import { keywordClass, type KeywordText } from '../model/check.js';

/** Tells a reader what kind of sentence a finding stands on: one the spec requires, recommends, or only describes. */
export function backing(keywordText: KeywordText): string {
  switch (keywordText) {
    case 'descriptive':
      return 'descriptive text: the spec describes this without a BCP 14 keyword, so it can only warn';
    case 'lower-case should in schema.json':
      return 'a lower-case "should" in a schema.json description: no BCP 14 keyword, so it can only warn';
    case 'schema.json structural rule':
      return 'schema.json structural rule: the spec requires it';
    default:
      if (keywordClass(keywordText) === 'MUST') return `${keywordText}: the spec requires it`;
      if (keywordClass(keywordText) === 'SHOULD') return `${keywordText}: the spec recommends it`;
      return `${keywordText}: the spec allows it`;
  }
}
