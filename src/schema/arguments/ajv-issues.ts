import type { ErrorObject } from 'ajv';
import { MAX_ISSUES, type SchemaIssue } from '../validator.js';

/** An `if` error only restates that a `then`/`else` branch failed; that branch's own errors are reported too. */
export function toIssues(errors: readonly ErrorObject[]): SchemaIssue[] {
  const seen = new Set<string>();
  const issues: SchemaIssue[] = [];
  for (const error of errors) {
    if (error.keyword === 'if') continue;
    const message = error.message ?? error.keyword;
    const identity = JSON.stringify([error.instancePath, error.keyword, error.params, message]);
    if (seen.has(identity)) continue;
    seen.add(identity);
    issues.push({ instancePath: error.instancePath, schemaPath: error.schemaPath, keyword: error.keyword, params: { ...error.params }, message });
    if (issues.length === MAX_ISSUES) break;
  }
  return issues;
}

export function describeIssue(issue: SchemaIssue): string {
  return `${issue.instancePath === '' ? '(root)' : issue.instancePath} ${issue.message}`;
}
