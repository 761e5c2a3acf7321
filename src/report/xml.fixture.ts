/** Test support: enough of an XML parser to read our own JUnit output back. */

export interface XmlNode {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
  text: string;
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|amp|lt|gt|quot|apos);/gi, (_, entity: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (entity in named) return named[entity] ?? '';
    const code = entity.startsWith('#x') ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
    return String.fromCodePoint(code);
  });
}

/** Enough of an XML parser for our own output: fails on unbalanced tags, bare `<`/`&` and bad attributes. */
export function parseXml(xml: string): XmlNode {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const root: XmlNode = { name: '#document', attributes: {}, children: [], text: '' };
  const stack: XmlNode[] = [root];
  const token = /<(\/?)([A-Za-z][\w-]*)((?:\s+[\w-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let match: RegExpExecArray | null;
  let consumed = 0;
  while ((match = token.exec(body)) !== null) {
    consumed = token.lastIndex;
    const [, closing, name, rawAttributes, selfClosing, text] = match;
    const top = stack[stack.length - 1] as XmlNode;
    if (text !== undefined) {
      if (/&(?!(#x[0-9a-f]+|#[0-9]+|amp|lt|gt|quot|apos);)/i.test(text)) throw new Error(`bare & in ${text}`);
      top.text += decodeEntities(text);
    } else if (closing === '/') {
      if (top.name !== name) throw new Error(`</${name}> closes <${top.name}>`);
      stack.pop();
    } else {
      const attributes: Record<string, string> = {};
      for (const [, key, value] of (rawAttributes ?? '').matchAll(/([\w-]+)="([^"]*)"/g)) {
        if (key === undefined || key in attributes) throw new Error(`duplicate attribute ${key}`);
        attributes[key] = decodeEntities(value ?? '');
      }
      const node: XmlNode = { name: name ?? '', attributes, children: [], text: '' };
      top.children.push(node);
      if (selfClosing !== '/') stack.push(node);
    }
  }
  if (consumed !== body.length)
    throw new Error(`unparseable XML at ${consumed}: ${body.slice(consumed, consumed + 40)}`);
  if (stack.length !== 1) throw new Error(`unclosed <${stack[stack.length - 1]?.name}>`);
  const [documentElement] = root.children;
  if (root.children.length !== 1 || documentElement === undefined) throw new Error('expected one root element');
  return documentElement;
}

export const all = (node: XmlNode, name: string): XmlNode[] =>
  node.children.flatMap((child) => [...(child.name === name ? [child] : []), ...all(child, name)]);
export const child = (node: XmlNode, name: string): XmlNode | undefined => node.children.find((c) => c.name === name);
