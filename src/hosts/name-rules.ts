import { isObject } from './schema-nodes.js';
import type { HostTool, RuleHit } from './types.js';

/**
 * Pieces the hosts' rules share: the characters a pattern refuses, a rename, the UTF-8 length of a text, and the checks
 * that several hosts state alike.
 */

/** The characters of `name` outside `allowed` (a character class body such as `A-Za-z0-9_-`), each once. */
export function refusedCharacters(name: string, allowed: string): string[] {
  const refused = new RegExp(`[^${allowed}]`, 'gu');
  return [...new Set(name.match(refused) ?? [])];
}

export function renamed(name: string, allowed: string): string {
  return name.replace(new RegExp(`[^${allowed}]`, 'gu'), '_');
}

export function shown(characters: readonly string[]): string {
  return characters.map((c) => JSON.stringify(c)).join(', ');
}

export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** A host that replaces the characters of a name outside `allowed` with `_` (`who`: "Gemini CLI", "VS Code"). */
export function replacedCharacters(who: string, allowed: string): (tool: HostTool) => RuleHit[] {
  return (tool) => {
    const refused = refusedCharacters(tool.name, allowed);
    if (refused.length === 0) return [];
    const seen = renamed(tool.name, allowed);
    return [
      {
        message: `${who} replaces ${shown(refused)} with \`_\`: the model sees \`${seen}\``,
        fix: `rename \`${tool.name}\` → \`${seen}\``,
      },
    ];
  };
}

/** A host whose API takes only an object schema at the root (`said`: the message, up to the type found). */
export function rootNotObject(said: string): (tool: HostTool) => RuleHit[] {
  return (tool) => {
    const type = isObject(tool.inputSchema) ? tool.inputSchema['type'] : undefined;
    if (type === 'object') return [];
    return [
      {
        message: `${said} ${JSON.stringify(type ?? null)}`,
        fix: 'set `type: "object"` at the root of inputSchema (wrap other values in a property)',
      },
    ];
  };
}
