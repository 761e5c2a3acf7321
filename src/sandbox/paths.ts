import { sep } from 'node:path';

/** Whether `path` is `parent` or lies under it (both absolute and normalised). */
export function isWithin(path: string, parent: string): boolean {
  return path === parent || path.startsWith(parent.endsWith(sep) ? parent : parent + sep);
}

/** The paths not inside another one of them, sorted. */
export function outermost(paths: Iterable<string>): string[] {
  const sorted = [...new Set(paths)].sort();
  const kept: string[] = [];
  for (const path of sorted) if (!kept.some((outer) => isWithin(path, outer))) kept.push(path);
  return kept;
}
