/**
 * Characters that hide text from a person reading a tool definition while a model still reads it: bidirectional
 * controls (Trojan Source), zero-width characters, Unicode tag characters (invisible ASCII) and terminal controls.
 */

export type HiddenKind = 'bidi control' | 'zero-width character' | 'tag character' | 'terminal control';

export interface HiddenChar {
  codePoint: number;
  /** 1-based, counted in code points. */
  position: number;
  kind: HiddenKind;
  name: string;
}

const BIDI: Readonly<Record<number, string>> = {
  0x061c: 'ARABIC LETTER MARK',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
};

const ZERO_WIDTH: Readonly<Record<number, string>> = {
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x2060: 'WORD JOINER',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
};

// Tab, line feed and carriage return are ordinary text; every other C0 control, and the C1 controls (0x9b is an 8-bit
// CSI, 0x9d an OSC), can drive a terminal.
const C0 = [
  'NULL',
  'START OF HEADING',
  'START OF TEXT',
  'END OF TEXT',
  'END OF TRANSMISSION',
  'ENQUIRY',
  'ACKNOWLEDGE',
  'BELL',
  'BACKSPACE',
  '',
  '',
  'LINE TABULATION',
  'FORM FEED',
  '',
  'SHIFT OUT',
  'SHIFT IN',
  'DATA LINK ESCAPE',
  'DEVICE CONTROL ONE',
  'DEVICE CONTROL TWO',
  'DEVICE CONTROL THREE',
  'DEVICE CONTROL FOUR',
  'NEGATIVE ACKNOWLEDGE',
  'SYNCHRONOUS IDLE',
  'END OF TRANSMISSION BLOCK',
  'CANCEL',
  'END OF MEDIUM',
  'SUBSTITUTE',
  'ESCAPE',
  'INFORMATION SEPARATOR FOUR',
  'INFORMATION SEPARATOR THREE',
  'INFORMATION SEPARATOR TWO',
  'INFORMATION SEPARATOR ONE',
];
const C1 = [
  'PADDING CHARACTER',
  'HIGH OCTET PRESET',
  'BREAK PERMITTED HERE',
  'NO BREAK HERE',
  'INDEX',
  'NEXT LINE',
  'START OF SELECTED AREA',
  'END OF SELECTED AREA',
  'CHARACTER TABULATION SET',
  'CHARACTER TABULATION WITH JUSTIFICATION',
  'LINE TABULATION SET',
  'PARTIAL LINE FORWARD',
  'PARTIAL LINE BACKWARD',
  'REVERSE LINE FEED',
  'SINGLE SHIFT TWO',
  'SINGLE SHIFT THREE',
  'DEVICE CONTROL STRING',
  'PRIVATE USE ONE',
  'PRIVATE USE TWO',
  'SET TRANSMIT STATE',
  'CANCEL CHARACTER',
  'MESSAGE WAITING',
  'START OF GUARDED AREA',
  'END OF GUARDED AREA',
  'START OF STRING',
  'SINGLE GRAPHIC CHARACTER INTRODUCER',
  'SINGLE CHARACTER INTRODUCER',
  'CONTROL SEQUENCE INTRODUCER',
  'STRING TERMINATOR',
  'OPERATING SYSTEM COMMAND',
  'PRIVACY MESSAGE',
  'APPLICATION PROGRAM COMMAND',
];

const TAG_FIRST = 0xe0000;
const TAG_LAST = 0xe007f;
const CANCEL_TAG = 0xe007f;
const BLACK_FLAG = 0x1f3f4;

function tagName(code: number): string {
  if (code === 0xe0001) return 'LANGUAGE TAG';
  if (code === CANCEL_TAG) return 'CANCEL TAG';
  if (code >= 0xe0020 && code <= 0xe007e) return `TAG ${JSON.stringify(String.fromCharCode(code - TAG_FIRST))}`;
  return 'TAG CHARACTER (unassigned)';
}

function classify(code: number): { kind: HiddenKind; name: string } | undefined {
  if (BIDI[code]) return { kind: 'bidi control', name: BIDI[code]! };
  if (ZERO_WIDTH[code]) return { kind: 'zero-width character', name: ZERO_WIDTH[code]! };
  if (code >= TAG_FIRST && code <= TAG_LAST) return { kind: 'tag character', name: tagName(code) };
  if (code < 0x20 && C0[code]) return { kind: 'terminal control', name: C0[code]! };
  if (code >= 0x80 && code <= 0x9f) return { kind: 'terminal control', name: C1[code - 0x80]! };
  return undefined;
}

const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
/** What may sit between a pictograph and a joiner: a skin-tone modifier or the emoji presentation selector. */
// eslint-disable-next-line no-misleading-character-class -- each is one code point, matched on its own
const EMOJI_TRAIL = /[\u{1f3fb}-\u{1f3ff}\ufe0f]/u;
const NON_ASCII_LETTER = /[\p{L}\p{M}]/u;

/** A pictograph ends at `index` (past skin tones and presentation selectors). */
function pictographEndsAt(chars: readonly string[], index: number): boolean {
  let i = index;
  while (i >= 0 && EMOJI_TRAIL.test(chars[i]!)) i -= 1;
  return i >= 0 && PICTOGRAPHIC.test(chars[i]!);
}

const scriptLetter = (char: string | undefined): boolean =>
  char !== undefined && char.codePointAt(0)! > 0x7f && NON_ASCII_LETTER.test(char);

/**
 * Joiners that do visible work, so no alarm: U+200D inside an emoji sequence (👩‍💻), U+200C and U+200D between letters
 * of a script that shapes with them (Persian, the Indic scripts), and the tag characters of a subdivision flag (🏴 then
 * tags then CANCEL TAG).
 */
function legitimate(chars: readonly string[], index: number, code: number): boolean {
  if (code === 0x200d && pictographEndsAt(chars, index - 1) && PICTOGRAPHIC.test(chars[index + 1] ?? '')) return true;
  if ((code === 0x200c || code === 0x200d) && scriptLetter(chars[index - 1]) && scriptLetter(chars[index + 1]))
    return true;
  return false;
}

/** The spans of subdivision flags: 🏴, tag characters, CANCEL TAG. */
function flagTagIndexes(chars: readonly string[]): Set<number> {
  const inFlags = new Set<number>();
  for (let i = 0; i < chars.length; i += 1) {
    if (chars[i]!.codePointAt(0) !== BLACK_FLAG) continue;
    let j = i + 1;
    while (j < chars.length) {
      const code = chars[j]!.codePointAt(0)!;
      if (code < 0xe0020 || code > 0xe007e) break;
      j += 1;
    }
    if (j > i + 1 && chars[j]?.codePointAt(0) === CANCEL_TAG) for (let k = i + 1; k <= j; k += 1) inFlags.add(k);
  }
  return inFlags;
}

/** Every hidden character of `text`, in order. */
export function hiddenChars(text: string): HiddenChar[] {
  const chars = Array.from(text);
  const flags = flagTagIndexes(chars);
  const found: HiddenChar[] = [];
  chars.forEach((char, index) => {
    const code = char.codePointAt(0)!;
    const kind = classify(code);
    if (!kind || flags.has(index) || legitimate(chars, index, code)) return;
    found.push({ codePoint: code, position: index + 1, ...kind });
  });
  return found;
}

/** `U+202E` */
export const codePointLabel = (code: number): string => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

/** Control, format, separator, private-use and unassigned characters: shown as escapes, never raw. */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u;

/** The text with every unprintable character written as `\u{…}`, so nothing hidden reaches a report raw. */
export function escapeHidden(text: string): string {
  let out = '';
  for (const char of text)
    out += UNPRINTABLE.test(char) ? `\\u{${char.codePointAt(0)!.toString(16).toUpperCase()}}` : char;
  return out;
}

/** Around `position` (1-based code points), escaped: at most `radius` characters either side, elisions marked. */
export function excerptAround(text: string, position: number, radius = 24): string {
  const chars = Array.from(text);
  const from = Math.max(0, position - 1 - radius);
  const to = Math.min(chars.length, position + radius);
  return `${from > 0 ? '…' : ''}${escapeHidden(chars.slice(from, to).join(''))}${to < chars.length ? '…' : ''}`;
}

/**
 * What a run of tag characters spells in ASCII (the usual way to smuggle instructions), or undefined when there is
 * none.
 */
export function tagText(found: readonly HiddenChar[]): string | undefined {
  const spelled = found
    .filter((c) => c.codePoint >= 0xe0020 && c.codePoint <= 0xe007e)
    .map((c) => String.fromCharCode(c.codePoint - TAG_FIRST))
    .join('');
  return spelled === '' ? undefined : spelled;
}
