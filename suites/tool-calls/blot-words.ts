/** A letter, a digit or `_`: what may not stand right before or after a token for it to count as a whole word. */
const WORD_CHAR = /[\p{L}\p{N}_]/u;

const isWordCodePointAt = (text: string, index: number): boolean => {
  const codePoint = text.codePointAt(index);
  return codePoint !== undefined && WORD_CHAR.test(String.fromCodePoint(codePoint));
};

/** Whether `index` falls between the two halves of a surrogate pair (where a match may neither start nor end). */
const splitsPair = (text: string, index: number): boolean => {
  const high = text.charCodeAt(index - 1);
  const low = text.charCodeAt(index);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
};

/** Whether the code point that ends right before `index` is a word character (a surrogate pair read as one). */
const wordCharBefore = (text: string, index: number): boolean =>
  index > 0 && isWordCodePointAt(text, splitsPair(text, index - 1) ? index - 2 : index - 1);

/**
 * `text` with every whole-word occurrence of a token replaced by `…`, scanning left to right; at each place the first
 * token in `tokens` order that fits wins (pass them longest first). The same result as a global Unicode regular
 * expression `(?<![\p{L}\p{N}_])(?:t1|t2|…)(?![\p{L}\p{N}_])`, without compiling one per set of tokens.
 */
export function blotWords(text: string, tokens: readonly string[]): string {
  const present = tokens.filter((t) => t !== '' && text.includes(t));
  if (present.length === 0) return text;
  let out = '';
  let copied = 0;
  let index = 0;
  while (index < text.length) {
    if (!wordCharBefore(text, index)) {
      const token = present.find(
        (t) =>
          text.startsWith(t, index) &&
          !splitsPair(text, index + t.length) &&
          !isWordCodePointAt(text, index + t.length),
      );
      if (token !== undefined) {
        out += `${text.slice(copied, index)}…`;
        index += token.length;
        copied = index;
        continue;
      }
    }
    index += (text.codePointAt(index) ?? 0) > 0xffff ? 2 : 1;
  }
  return out + text.slice(copied);
}
