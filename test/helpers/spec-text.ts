import { existsSync, readFileSync } from 'node:fs';
import type { SpecSentence } from '../../src/model/check.js';
import type { Revision } from '../../src/core/revision.js';
import { sharedPath } from './shared.js';

/** The pages of one revision as ../shared/spec holds them. */
export const specDir = (wire: Revision) => sharedPath('spec', wire);

/** Page text as a reader sees it: list markers, emphasis, backticks and link targets gone, whitespace collapsed. */
export function normaliseText(text: string): string {
  return text
    .replace(/^[ \t]*(?:[-*]|\d+\.)[ \t]+/gm, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/\*\*/g, '')
    .replace(/`/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** GitHub/Mintlify-style heading anchor. */
export function slug(heading: string): string {
  return normaliseText(heading)
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .trim()
    .replace(/ /g, '-');
}

export interface Page {
  text: string;
  anchors: Set<string>;
}

const pages = new Map<string, Page | undefined>();

export function loadPage(wire: Revision, path: string): Page | undefined {
  const key = `${wire}/${path}`;
  if (!pages.has(key)) {
    const file = [`${specDir(wire)}/${path}.mdx`, `${specDir(wire)}/${path}/index.mdx`].find((f) => existsSync(f));
    if (!file) pages.set(key, undefined);
    else {
      const raw = readFileSync(file, 'utf8');
      const anchors = new Set([...raw.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => slug(m[1]!)));
      pages.set(key, { text: normaliseText(raw), anchors });
    }
  }
  return pages.get(key);
}

const schemas = new Map<Revision, unknown>();
export function loadSchema(wire: Revision): unknown {
  if (!schemas.has(wire)) schemas.set(wire, JSON.parse(readFileSync(`${specDir(wire)}/schema.json`, 'utf8')));
  return schemas.get(wire);
}

export function resolvePointer(document: unknown, pointer: string): { found: boolean; value?: unknown } {
  let node = document;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return { found: false };
    node = (node as Record<string, unknown>)[key];
  }
  return { found: true, value: node };
}

const ELISION = ' … ';
const REQUIRING = /\b(MUST|SHALL|REQUIRED)\b/;
const ANY_KEYWORD = /\b(MUST|SHALL|REQUIRED|SHOULD|RECOMMENDED|MAY|OPTIONAL)\b/;

/** Why one sentence does not hold up against the revision's text, or undefined when it does. */
export function sentenceProblem(wire: Revision, sentence: SpecSentence): string | undefined {
  const [path, anchor] = sentence.ref.split('#') as [string, string | undefined];
  if (path === 'schema.json') return schemaProblem(wire, sentence, anchor ?? '');
  const page = loadPage(wire, path);
  if (!page) return `no page ${path}.mdx in the ${wire} spec`;
  if (anchor !== undefined && !page.anchors.has(anchor))
    return `no heading #${anchor} on ${path} (${wire}); headings: ${[...page.anchors].join(', ')}`;
  let from = 0;
  for (const fragment of normaliseText(sentence.text)
    .split(ELISION.trim())
    .map((f) => f.trim())
    .filter(Boolean)) {
    const at = page.text.indexOf(fragment, from);
    if (at < 0) return `not found on ${path} (${wire}) in this order: "${fragment}"`;
    from = at + fragment.length;
  }
  return keywordProblem(sentence);
}

function keywordProblem(sentence: SpecSentence): string | undefined {
  const text = normaliseText(sentence.text);
  switch (sentence.keyword) {
    case 'descriptive':
      return ANY_KEYWORD.test(text) ? `labelled descriptive but holds ${ANY_KEYWORD.exec(text)![1]}` : undefined;
    case 'schema.json structural rule':
    case 'lower-case should in schema.json':
      return `${sentence.keyword} must point into schema.json`;
    default: {
      const words = sentence.keyword.split(' ');
      const pattern = new RegExp(
        `\\b${words.join('\\s+')}\\b` +
          String(
            words.length === 1 && (words[0] === 'MUST' || words[0] === 'SHOULD' || words[0] === 'SHALL')
              ? '(?!\\s+NOT)'
              : '',
          ),
      );
      if (sentence.keyword === 'RECOMMENDED' && !/(?<!NOT\s)\bRECOMMENDED\b/.test(text))
        return 'labelled RECOMMENDED but the text has no such keyword';
      return pattern.test(text) ? undefined : `labelled ${sentence.keyword} but the text has no such keyword`;
    }
  }
}

function schemaProblem(wire: Revision, sentence: SpecSentence, pointer: string): string | undefined {
  const at = resolvePointer(loadSchema(wire), pointer);
  if (!at.found) return `no ${pointer} in the ${wire} schema.json`;
  if (sentence.keyword === 'lower-case should in schema.json') {
    if (typeof at.value !== 'string') return `${pointer} is not a description string`;
    if (!normaliseText(at.value).includes(normaliseText(sentence.text)))
      return `not found in ${pointer}: "${sentence.text}"`;
    if (!/\bshould\b/.test(sentence.text)) return 'labelled lower-case should but has no "should"';
    return REQUIRING.test(sentence.text) ? 'a requirement keyword in a text labelled lower-case should' : undefined;
  }
  // A keyword in capitals inside a description (the TSDoc of schema.ts) states a requirement as a page sentence does.
  if (
    sentence.keyword !== 'schema.json structural rule' &&
    sentence.keyword !== 'descriptive' &&
    typeof at.value === 'string' &&
    /description$/.test(pointer)
  ) {
    if (!normaliseText(at.value).includes(normaliseText(sentence.text)))
      return `not found in ${pointer}: "${sentence.text}"`;
    return keywordProblem(sentence);
  }
  // A description may merely describe (a hint of ToolAnnotations): such a sentence warns at most.
  if (sentence.keyword === 'descriptive') {
    if (typeof at.value !== 'string' || !/description$/.test(pointer))
      return 'a descriptive sentence must point at a description';
    if (!normaliseText(at.value).includes(normaliseText(sentence.text)))
      return `not found in ${pointer}: "${sentence.text}"`;
    return REQUIRING.test(sentence.text) ? 'a requirement keyword in a text labelled descriptive' : undefined;
  }
  if (sentence.keyword !== 'schema.json structural rule')
    return `a ${sentence.keyword} sentence cannot point into schema.json`;
  if (typeof at.value === 'string' && /description$/.test(pointer)) return 'a description is not a structural rule';
  const expected = JSON.stringify(at.value);
  const given = (() => {
    try {
      return JSON.stringify(JSON.parse(sentence.text));
    } catch {
      return undefined;
    }
  })();
  return given === expected ? undefined : `the value at ${pointer} is ${expected.slice(0, 200)}, not ${sentence.text}`;
}
