import { isObject } from '../../core/jsonrpc.js';
import { shorten } from './shorten.js';

export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;
const INVALID_ESCAPE = /~(?![01])/;

export type Failure = { ok: false; reason: string };
export type PointerTokens = { ok: true; tokens: string[] } | Failure;
/** `path` holds every value met on the way, from `root` (first) to the target (last). */
export type PointerLookup = { ok: true; tokens: string[]; path: unknown[] } | Failure;

/** RFC 6901 tokens of an already percent-decoded pointer (`''` or `/a/b`). */
export function parsePointer(pointer: string): PointerTokens {
  if (pointer === '') return { ok: true, tokens: [] };
  if (!pointer.startsWith('/')) return { ok: false, reason: 'a JSON pointer must be empty or start with "/"' };
  const tokens: string[] = [];
  for (const raw of pointer.slice(1).split('/')) {
    if (INVALID_ESCAPE.test(raw))
      return { ok: false, reason: `invalid "~" escape in JSON pointer token "${shorten(raw)}"` };
    tokens.push(raw.replace(/~1/g, '/').replace(/~0/g, '~'));
  }
  return { ok: true, tokens };
}

export function evaluatePointer(root: unknown, pointer: string): PointerLookup {
  const parsed = parsePointer(pointer);
  if (!parsed.ok) return parsed;
  const path: unknown[] = [root];
  let current = root;
  for (const token of parsed.tokens) {
    if (Array.isArray(current)) {
      if (!ARRAY_INDEX.test(token) || Number(token) >= current.length) return missing(pointer);
      current = current[Number(token)];
    } else if (isObject(current) && Object.hasOwn(current, token)) {
      current = current[token];
    } else {
      return missing(pointer);
    }
    path.push(current);
  }
  return { ok: true, tokens: parsed.tokens, path };
}

function missing(pointer: string): Failure {
  return { ok: false, reason: `nothing exists at JSON pointer ${shorten(pointer)}` };
}
