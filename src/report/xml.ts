import { stripXmlForbidden } from './text-safety.js';

export type XmlAttributes = Record<string, string | number | undefined>;

export function escapeXmlText(text: string): string {
  return stripXmlForbidden(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Tab, LF and CR are written as character references so attribute normalisation keeps them. */
export function escapeXmlAttribute(text: string): string {
  return escapeXmlText(text)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

function renderAttributes(attributes: XmlAttributes): string {
  return Object.entries(attributes)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escapeXmlAttribute(String(value))}"`)
    .join('');
}

/**
 * An element whose children are already-rendered XML; empty children make it self-closing.
 * Only lines that start with markup are indented: escaped text never contains a raw `<`, so
 * continuation lines of text content are recognised and left exactly as they were.
 */
export function xmlElement(name: string, attributes: XmlAttributes, children: readonly string[] = []): string {
  const open = `<${name}${renderAttributes(attributes)}`;
  if (children.length === 0) return `${open}/>`;
  const body = children.flatMap((child) => child.split('\n')).map((line) => (/^\s*</.test(line) ? `  ${line}` : line));
  return [`${open}>`, ...body, `</${name}>`].join('\n');
}

/** An element holding text; CR is a character reference because parsers would normalise it away. */
export function xmlTextElement(name: string, attributes: XmlAttributes, text: string): string {
  return `<${name}${renderAttributes(attributes)}>${escapeXmlText(text).replace(/\r/g, '&#13;')}</${name}>`;
}
