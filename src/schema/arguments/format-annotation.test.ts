import { describe, expect, it } from 'vitest';
import { describeFormatDependence } from './format-annotation.js';
import { compileArgumentSchema } from './validate.js';

function dependenceOf(schema: unknown, value: unknown) {
  const compiled = compileArgumentSchema(schema);
  if (!compiled.ok) throw new Error(compiled.reason);
  const { format } = compiled.validator.validate(value);
  if (!format) throw new Error('expected a verdict that hinges on format');
  return format;
}

describe('describeFormatDependence', () => {
  const when = { type: 'object', properties: { when: { type: 'string', format: 'date-time' } } };

  it('names the format, the value, why it is not well-formed, and why that is no failure', () => {
    const naive = { when: '2026-01-01T10:00:00' };
    const text = describeFormatDependence(dependenceOf(when, naive), naive, '2020-12');
    expect(text.finding).toBe(
      '/when "2026-01-01T10:00:00" is not a well-formed "date-time" (an RFC 3339 date-time): it has no ' +
        'time-zone offset ("Z" or ±hh:mm), which RFC 3339 requires: a naive date-time',
    );
    expect(text.why).toMatch(/^in JSON Schema 2020-12 \(MCP's default dialect\) `format` is an annotation/);
    const other = { when: 'noon' };
    expect(describeFormatDependence(dependenceOf(when, other), other, 'draft-07')).toMatchObject({
      finding: '/when "noon" is not a well-formed "date-time" (an RFC 3339 date-time)',
      why: expect.stringMatching(/^JSON Schema draft-07 leaves asserting `format` to each validator/),
    });
  });

  it("calls 2020-12 an assumption, not MCP's default, for a revision that names no default dialect", () => {
    const naive = { when: '2026-01-01T10:00:00' };
    const text = describeFormatDependence(dependenceOf(when, naive), naive, '2020-12', true);
    expect(text.why).toMatch(
      /^in JSON Schema 2020-12 \(assumed: the schema declares no dialect and this revision of MCP names no default; draft-07 leaves asserting `format` to each validator\) `format` is an annotation/,
    );
    expect(text.why).not.toMatch(/MCP's default dialect/);
  });

  it('says when only a validator asserting formats accepts the value', () => {
    const schema = {
      type: 'object',
      properties: {
        ip: {
          oneOf: [
            { type: 'string', format: 'ipv4' },
            { type: 'string', format: 'ipv6' },
          ],
        },
      },
    };
    const value = { ip: '192.0.2.1' };
    const text = describeFormatDependence(dependenceOf(schema, value), value, '2020-12');
    expect(text.finding).toMatch(
      /^with formats as annotations \/ip must match exactly one schema in oneOf.*while with formats asserted it is valid/,
    );
    expect(text.why).toMatch(/hinges on `format` alone/);
  });
});
