import type { Dialect } from '../tool-schema/index.js';
import { evaluatePointer } from '../tool-schema/json-pointer.js';
import { shorten } from '../tool-schema/shorten.js';
import type { SchemaIssue } from '../validator.js';
import { describeIssue } from './ajv-issues.js';
import type { FormatDependence } from './validate.js';

/** What a well-formed value is, for the formats people meet most; other formats are only named. */
const WELL_FORMED: Readonly<Record<string, string>> = {
  'date-time': 'an RFC 3339 date-time',
  date: 'an RFC 3339 full-date',
  time: 'an RFC 3339 full-time',
  duration: 'an ISO 8601 duration',
  email: 'an RFC 5321 mailbox',
  hostname: 'an RFC 1123 host name',
  ipv4: 'an IPv4 address in dotted-quad form',
  ipv6: 'an RFC 4291 IPv6 address',
  uri: 'an absolute RFC 3986 URI',
  'uri-reference': 'an RFC 3986 URI reference',
  uuid: 'an RFC 4122 UUID',
  regex: 'an ECMA-262 regular expression',
};

/** A date-time or time without its time-zone offset, as Python writes a datetime that has no tzinfo. */
const NAIVE: Readonly<Record<string, RegExp>> = {
  'date-time': /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?$/,
  time: /^\d{2}:\d{2}:\d{2}(\.\d+)?$/,
};

function describeFormatIssue(issue: SchemaIssue, instance: unknown): string {
  const format = typeof issue.params.format === 'string' ? issue.params.format : undefined;
  if (format === undefined) return describeIssue(issue);
  const found = evaluatePointer(instance, issue.instancePath);
  const value = found.ok ? found.path[found.path.length - 1] : undefined;
  const where = issue.instancePath === '' ? '(root)' : issue.instancePath;
  const shown = value === undefined ? '' : ` ${shorten(JSON.stringify(value) ?? '', 80)}`;
  const naive = typeof value === 'string' && NAIVE[format]?.test(value);
  const why = naive ? ': it has no time-zone offset ("Z" or ±hh:mm), which RFC 3339 requires: a naive date-time' : '';
  const rule = Object.hasOwn(WELL_FORMED, format) ? ` (${WELL_FORMED[format]})` : '';
  return `${where}${shown} is not a well-formed "${shorten(format, 40)}"${rule}${why}`;
}

/**
 * Why a value that breaks only `format` still conforms under `dialect`; `assumed` when the schema declares no dialect
 * and the revision in use names no default, so 2020-12 is only this tool's reading.
 */
function formatAnnotationReason(dialect: Dialect | undefined, assumed: boolean): string {
  if (dialect === 'draft-07' || dialect === 'draft-06') {
    return `JSON Schema ${dialect} leaves asserting \`format\` to each validator (assertion is optional)`;
  }
  const which =
    dialect === '2019-09'
      ? '2019-09'
      : assumed
        ? '2020-12 (assumed: the schema declares no dialect and this revision of MCP names no default; draft-07 ' +
          'leaves asserting `format` to each validator)'
        : "2020-12 (MCP's default dialect)";
  return (
    `in JSON Schema ${which} \`format\` is an annotation unless a meta-schema declares format assertion, and ` +
    `the standard one does not`
  );
}

/**
 * A FormatDependence in words, for a value `instance` of a schema of `dialect`: which formats the value breaks (or,
 * the other way round, what fails when formats are not asserted), and why that is not a validation failure; `assumed`
 * when `dialect` is only this tool's reading of a schema that declares none, on a revision that names no default.
 */
export function describeFormatDependence(
  dependence: FormatDependence,
  instance: unknown,
  dialect: Dialect | undefined,
  assumed = false,
): { finding: string; why: string } {
  const shown = dependence.issues.slice(0, 3);
  const more = dependence.issues.length > shown.length ? `; and ${dependence.issues.length - shown.length} more` : '';
  if (dependence.rejectedUnder === 'assertion') {
    return {
      finding: `${shown.map((issue) => describeFormatIssue(issue, instance)).join('; ')}${more}`,
      why: `${formatAnnotationReason(dialect, assumed)}; a validator that asserts formats would reject it`,
    };
  }
  return {
    finding:
      `with formats as annotations ${shown.map(describeIssue).join('; ')}${more}, while with formats ` +
      `asserted it is valid (a format decides it, as when it tells \`oneOf\` branches apart)`,
    why:
      'the verdict hinges on `format` alone, and JSON Schema lets a validator assert formats (an option in ' +
      "2020-12 and 2019-09, the validator's choice in draft-06/07)",
  };
}
