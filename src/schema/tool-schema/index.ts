export { DEFAULT_SCHEMA_LIMITS, measureSchema, type BoundsVerdict, type SchemaLimits } from './bounds.js';
export {
  DEFAULT_DIALECT,
  SUPPORTED_DIALECTS,
  dialectOf,
  namesDefaultDialect,
  type Dialect,
  type DialectInfo,
} from './dialect.js';
export { metaValidationRuns, validateSchemaDocument, type MetaVerdict } from './meta.js';
export { analyzeRefs, type RefInfo, type RefKind } from './refs.js';
export type { RefKeyword } from './schema-index.js';
export { ecmaRegExpProblem, findPatterns, type SchemaPattern } from './patterns.js';
export { usesFormat } from './formats.js';
export { ENUM_SHOULD_TEXT, enumAdvice, type EnumAdvice } from './enum-advice.js';
export { byPointer, walkSubschemas } from './walk.js';
