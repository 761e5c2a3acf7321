import type { SchemaIssue } from '../validator.js';

export { toIssues } from '../validator.js';

export function describeIssue(issue: SchemaIssue): string {
  return `${issue.instancePath === '' ? '(root)' : issue.instancePath} ${issue.message}`;
}
