export { findHeaderAnnotations, type HeaderAnnotation } from './find.js';
export { annotatedType, checkHeaderAnnotations, type XmcpFinding, type XmcpRule } from './rules.js';
