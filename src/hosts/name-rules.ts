/** Pieces the hosts' name rules share: the characters a pattern refuses, a rename, the UTF-8 length of a text. */

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
