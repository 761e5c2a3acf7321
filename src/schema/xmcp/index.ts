export { findHeaderAnnotations, type HeaderAnnotation } from './find.js';
export { checkHeaderAnnotations, type XmcpFinding, type XmcpRule } from './rules.js';
export { annotatedType, type HeaderType, type IntegerRange, type TypeDecision } from './target-type.js';
