import { REDACTED } from '../model/redacted.js';

/** Shorter values are too likely to occur by chance in what the target says to be worth hiding. */
const MIN_SECRET_LENGTH = 4;

/** Values the user gave us that must never reach a report: --header values and --env values. */
export function secretValues(
  headers: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string>>,
): string[] {
  const values = [...Object.values(headers), ...Object.values(env)]
    .flatMap((v) => [v, ...v.split(/\s+/)])
    .map((v) => v.trim())
    .filter((v) => v.length >= MIN_SECRET_LENGTH);
  return [...new Set(values)].sort((a, b) => b.length - a.length);
}

/** A copy of `value` in which every occurrence of a secret, anywhere in any string or key, is replaced. */
export function scrubSecrets<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  const scrubText = (text: string): string => {
    let out = text;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  };
  const seen = new WeakMap<object, unknown>();
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return scrubText(node);
    if (node === null || typeof node !== 'object') return node;
    if (seen.has(node)) return seen.get(node);
    if (Array.isArray(node)) {
      const copy: unknown[] = [];
      seen.set(node, copy);
      for (const item of node) copy.push(walk(item));
      return copy;
    }
    const copy: Record<string, unknown> = {};
    seen.set(node, copy);
    for (const [key, item] of Object.entries(node)) copy[scrubText(key)] = walk(item);
    return copy;
  };
  return walk(value) as T;
}
