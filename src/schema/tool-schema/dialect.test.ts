import { describe, expect, it } from 'vitest';
import { dialectOf } from './dialect.js';

describe('dialectOf', () => {
  it('defaults to 2020-12 when $schema is absent', () => {
    expect(dialectOf({ type: 'object' })).toEqual({ dialect: '2020-12', supported: true });
    expect(dialectOf(true)).toEqual({ dialect: '2020-12', supported: true });
  });

  it.each([
    ['https://json-schema.org/draft/2020-12/schema', '2020-12'],
    ['https://json-schema.org/draft/2020-12/schema#', '2020-12'],
    ['http://json-schema.org/draft/2020-12/schema', '2020-12'],
    ['http://json-schema.org/draft/2020-12/schema#', '2020-12'],
    ['https://json-schema.org/draft/2019-09/schema', '2019-09'],
    ['http://json-schema.org/draft/2019-09/schema#', '2019-09'],
    ['http://json-schema.org/draft-07/schema#', 'draft-07'],
    ['http://json-schema.org/draft-07/schema', 'draft-07'],
    ['https://json-schema.org/draft-07/schema#', 'draft-07'],
    ['http://json-schema.org/draft-06/schema#', 'draft-06'],
    ['HTTP://JSON-SCHEMA.ORG/draft-06/schema', 'draft-06'],
  ])('recognises %s as %s', (declared, dialect) => {
    expect(dialectOf({ $schema: declared })).toEqual({ dialect, declared, supported: true });
  });

  it('recognises draft-04, whose official meta-schema is held too', () => {
    const declared = 'http://json-schema.org/draft-04/schema#';
    expect(dialectOf({ $schema: declared })).toEqual({ dialect: 'draft-04', declared, supported: true });
  });

  it('reports an unknown dialect URI as unsupported, naming it, and never falls back to 2020-12', () => {
    const verdict = dialectOf({ $schema: 'https://example.com/my-dialect' });
    expect(verdict).toEqual({
      declared: 'https://example.com/my-dialect',
      supported: false,
      reason: 'unknown dialect https://example.com/my-dialect',
    });
    expect(verdict.dialect).toBeUndefined();
  });

  it('does not accept near misses of the official URIs', () => {
    for (const declared of [
      'json-schema.org/draft-07/schema#',
      'https://json-schema.org/draft/2020-12/schema/',
      'https://evil.example/draft-07/schema',
      ' https://json-schema.org/draft/2020-12/schema',
    ]) {
      expect(dialectOf({ $schema: declared }).supported, declared).toBe(false);
    }
  });

  it.each([[5], [null], [{ uri: 'x' }], [['https://json-schema.org/draft/2020-12/schema']]])(
    'handles a non-string $schema %j',
    ($schema) => {
      const verdict = dialectOf({ $schema });
      expect(verdict.supported).toBe(false);
      expect(verdict.dialect).toBeUndefined();
      expect(verdict.declared).toBeUndefined();
      expect(verdict.reason).toMatch(/^\$schema must be a string URI, got (number|null|object|array)$/);
    },
  );

  it('truncates a huge unknown $schema in the reason', () => {
    const verdict = dialectOf({ $schema: `https://example.com/${'a'.repeat(100_000)}` });
    expect(verdict.reason!.length).toBeLessThan(300);
  });
});
