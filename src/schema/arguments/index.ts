export {
  compileArgumentSchema,
  isUndecided,
  type ArgumentValidator,
  type ArgumentVerdict,
  type CompiledArgumentSchema,
  type DialectReading,
  type FormatDependence,
  type UndeclaredDialect,
  undeclaredDialectOn,
} from './validate.js';
export { sampleArguments } from './sample.js';
export { invalidArguments, pickInvalidArguments, type InvalidArguments, type LenientReading } from './mutate.js';
export { describeIssue } from './ajv-issues.js';
export { warmUpArgumentAjv } from './ajv-family.js';
export { rootView } from './root-view.js';
export { documentOf, resolveNode } from './schema-document.js';
export { countAt, declaredTypes, numberAt } from './schema-node.js';
export { describeFormatDependence } from './format-annotation.js';
