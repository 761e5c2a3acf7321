import { keywordLabel, type KeywordText } from '../model/check.js';

/**
 * Tells a reader what kind of sentence a finding stands on: one the spec requires, recommends, or only describes. It
 * opens with the finding's label (MUST, SCHEMA, SHOULD, MAY, DESCRIPTIVE), or with the sentence's own BCP 14 keyword
 * when that is a variant of the label (MUST NOT, RECOMMENDED, …).
 */
export function backing(keywordText: KeywordText): string {
  switch (keywordText) {
    case 'descriptive':
      return 'DESCRIPTIVE: the spec describes this without a BCP 14 keyword, so it can only warn';
    case 'lower-case should in schema.json':
      return 'DESCRIPTIVE: a lower-case "should" in a schema.json description, no BCP 14 keyword, so it can only warn';
    case 'schema.json structural rule':
      return 'SCHEMA: a schema.json structural rule, which the spec requires';
    default: {
      const label = keywordLabel(keywordText);
      if (label === 'MUST') return `${keywordText}: the spec requires it`;
      if (label === 'SHOULD') return `${keywordText}: the spec recommends it`;
      return `${keywordText}: the spec allows it`;
    }
  }
}
