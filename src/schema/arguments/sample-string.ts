import { shorten } from '../tool-schema/shorten.js';
import { matchesPattern, stringForPattern } from './pattern-sample.js';
import { codePointLength, countAt, failure, type Outcome, type SchemaObject } from './schema-node.js';

/** One well-formed value for each format ajv-formats checks on strings. */
const FORMAT_SAMPLES: Readonly<Record<string, string>> = {
  'date-time': '2026-01-01T00:00:00Z',
  'iso-date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  time: '00:00:00Z',
  'iso-time': '00:00:00Z',
  duration: 'P1D',
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  uri: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  iri: 'https://example.com/',
  'iri-reference': 'https://example.com/',
  url: 'https://example.com/',
  'uri-template': 'https://example.com/{id}',
  uuid: '00000000-0000-4000-8000-000000000000',
  'json-pointer': '/a',
  'json-pointer-uri-fragment': '#/a',
  'relative-json-pointer': '0',
  regex: '^a$',
  byte: 'YQ==',
};

const MAX_SAMPLE_LENGTH = 10_000;

function lengthsText(minLength: number, maxLength: number): string {
  return maxLength === Infinity ? `minLength ${minLength}` : `minLength ${minLength} and maxLength ${maxLength}`;
}

export function sampleString(schema: SchemaObject): Outcome<string> {
  const minLength = countAt(schema, 'minLength') ?? 0;
  const maxLength = countAt(schema, 'maxLength') ?? Infinity;
  if (minLength > maxLength) return failure(`no string has ${lengthsText(minLength, maxLength)}`);
  if (minLength > MAX_SAMPLE_LENGTH) return failure(`minLength ${minLength} is too large to sample`);
  const pattern = typeof schema['pattern'] === 'string' ? schema['pattern'] : undefined;
  const format = typeof schema['format'] === 'string' ? schema['format'] : undefined;
  const formatSample =
    format !== undefined && Object.hasOwn(FORMAT_SAMPLES, format) ? FORMAT_SAMPLES[format] : undefined;

  // A well-formed value when the other keywords allow one; otherwise any string they accept: `format` is an annotation.
  if (formatSample !== undefined) {
    const length = codePointLength(formatSample);
    const fits =
      length >= minLength && length <= maxLength && (pattern === undefined || matchesPattern(pattern, formatSample));
    if (fits) return { ok: true, value: formatSample };
  }
  if (pattern !== undefined) {
    const text = stringForPattern(pattern, minLength, maxLength);
    return text === undefined
      ? failure(`cannot generate a string for pattern ${shorten(pattern, 80)}`)
      : { ok: true, value: text };
  }
  return { ok: true, value: 'a'.repeat(Math.min(Math.max(minLength, 1), maxLength)) };
}
