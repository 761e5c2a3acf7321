import type { CheckDefinition } from './types.js';

/** Turns `--checks`/`--exclude-checks` patterns (IDs or globs with `*`) into a filter over check IDs. */
export function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

export function parsePatterns(values: readonly string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

export interface Selection<C extends { id: string } = CheckDefinition> {
  selected: C[];
  /** Patterns that matched no check: a usage error, so typos never silently run nothing. */
  unmatched: string[];
}

export function selectChecks<C extends { id: string }>(
  all: readonly C[],
  include: readonly string[],
  exclude: readonly string[],
): Selection<C> {
  const unmatched: string[] = [];
  const matcher = (patterns: readonly string[]) => {
    const regexes = patterns.map((p) => ({ p, re: globToRegExp(p) }));
    for (const { p, re } of regexes) if (!all.some((c) => re.test(c.id))) unmatched.push(p);
    return (id: string) => regexes.some(({ re }) => re.test(id));
  };
  const included = include.length > 0 ? matcher(include) : () => true;
  const excluded = exclude.length > 0 ? matcher(exclude) : () => false;
  return { selected: all.filter((c) => included(c.id) && !excluded(c.id)), unmatched };
}

export function assertUniqueIds(checks: readonly { id: string }[]): void {
  const seen = new Set<string>();
  for (const check of checks) {
    if (seen.has(check.id)) throw new Error(`duplicate check id ${check.id}`);
    seen.add(check.id);
  }
}
