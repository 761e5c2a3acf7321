import { describe, expect, it } from 'vitest';
import { DEFAULT_SCHEMA_LIMITS } from './bounds.js';
import { analyzeRefs, type RefInfo } from './refs.js';

function only(schema: unknown): RefInfo {
  const refs = analyzeRefs(schema);
  expect(refs).toHaveLength(1);
  return refs[0]!;
}

describe('analyzeRefs: same-document JSON pointers', () => {
  it('resolves #/$defs/a and reports where the $ref sits', () => {
    expect(only({ $defs: { a: { type: 'string' } }, properties: { x: { $ref: '#/$defs/a' } } })).toEqual({
      at: '/properties/x',
      ref: '#/$defs/a',
      keyword: '$ref',
      kind: 'local-pointer',
      resolved: true,
    });
  });

  it('does not resolve #/$defs/missing', () => {
    const info = only({ $defs: { a: {} }, $ref: '#/$defs/missing' });
    expect(info).toMatchObject({ at: '', kind: 'local-pointer', resolved: false });
    expect(info.reason).toContain('/$defs/missing');
  });

  it('decodes ~1, ~0 and percent-escapes, and escapes the at pointer', () => {
    const schema = {
      properties: { 'a/b': { type: 'string' }, 'c~d': { type: 'number' }, 'e f': {}, 'g%h': {} },
      $defs: {
        x: { $ref: '#/properties/a~1b' },
        y: { $ref: '#/properties/c~0d' },
        z: { $ref: '#/properties/e%20f' },
        w: { $ref: '#/properties/g%25h' },
        bad: { $ref: '#/properties/a/b' },
      },
    };
    const refs = analyzeRefs(schema);
    expect(refs.map((r) => [r.at, r.resolved])).toEqual([
      ['/$defs/x', true],
      ['/$defs/y', true],
      ['/$defs/z', true],
      ['/$defs/w', true],
      ['/$defs/bad', false],
    ]);
    expect(only({ properties: { 'a/b': { $ref: '#' } } }).at).toBe('/properties/a~1b');
  });

  it('resolves # and the empty reference to the root, and array indexes', () => {
    const refs = analyzeRefs({
      allOf: [{ type: 'string' }],
      items: { $ref: '#' },
      not: { $ref: '' },
      if: { $ref: '#/allOf/0' },
      then: { $ref: '#/allOf/1' },
      else: { $ref: '#/allOf/00' },
    });
    expect(refs.map((r) => r.resolved)).toEqual([true, true, true, false, false]);
  });

  it('refuses a target that is not a schema, and malformed pointers', () => {
    const refs = analyzeRefs({
      properties: { a: {} },
      enum: ['x'],
      allOf: [
        { $ref: '#/properties' },
        { $ref: '#/allOf' },
        { $ref: '#/enum/0' },
        { $ref: '#/properties/a/~2' },
        { $ref: '#/%E0%A4%A' },
      ],
    });
    expect(refs.map((r) => [r.kind, r.resolved])).toEqual(Array.from({ length: 5 }, () => ['local-pointer', false]));
    expect(refs.slice(0, 3).every((r) => r.reason!.includes('not a schema'))).toBe(true);
    expect(refs[3]!.reason).toContain('escape');
    expect(refs[4]!.reason).toContain('percent-encoding');
  });

  it('accepts a schema kept under an unknown keyword, as validators do', () => {
    expect(only({ myDefs: { a: { type: 'string' } }, items: { $ref: '#/myDefs/a' } })).toMatchObject({
      resolved: true,
    });
  });

  it('ignores $ref inside data (const, enum, default, vendor keywords) and property names', () => {
    expect(
      analyzeRefs({
        const: { $ref: 'http://x/' },
        enum: [{ $ref: '#/nope' }],
        'x-vendor': { $ref: 'file:///x' },
        properties: { $ref: { type: 'string' } },
      }),
    ).toEqual([]);
  });

  it('reports a non-string $ref as unresolved', () => {
    expect(only({ $ref: 5 })).toMatchObject({
      ref: '<number>',
      kind: 'other',
      resolved: false,
      reason: '$ref must be a string',
    });
  });

  it('resolves cyclic-looking references without following them', () => {
    const refs = analyzeRefs({
      $ref: '#/$defs/a',
      $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' }, self: { $ref: '#/$defs/self' } },
    });
    expect(refs).toHaveLength(4);
    expect(refs.every((r) => r.resolved)).toBe(true);
  });
});

describe('analyzeRefs: anchors', () => {
  it('resolves #name against $anchor anywhere in the document', () => {
    expect(
      only({ $defs: { deep: { properties: { p: { $anchor: 'item', type: 'string' } } } }, items: { $ref: '#item' } }),
    ).toMatchObject({ kind: 'anchor', resolved: true });
  });

  it('resolves $dynamicRef against $dynamicAnchor', () => {
    expect(only({ $dynamicAnchor: 'meta', items: { $dynamicRef: '#meta' } })).toMatchObject({
      keyword: '$dynamicRef',
      kind: 'anchor',
      resolved: true,
    });
  });

  it('resolves the legacy draft-07 $id: "#name"', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      definitions: { a: { $id: '#item', type: 'string' } },
      items: { $ref: '#item' },
    };
    expect(only(schema)).toMatchObject({ kind: 'anchor', resolved: true });
  });

  it('does not resolve an unknown anchor', () => {
    const info = only({ $defs: { a: { $anchor: 'other' } }, $ref: '#item' });
    expect(info).toMatchObject({ kind: 'anchor', resolved: false });
    expect(info.reason).toContain('"item"');
  });

  it('accepts $recursiveRef "#"', () => {
    expect(only({ $recursiveAnchor: true, items: { $recursiveRef: '#' } })).toMatchObject({
      keyword: '$recursiveRef',
      kind: 'local-pointer',
      resolved: true,
    });
  });
});

describe('analyzeRefs: references leaving the document', () => {
  it.each([
    ['https://example.com/s.json', 'network'],
    ['http://127.0.0.1/schema.json#/x', 'network'],
    ['ws://example.com/s', 'network'],
    ['ftp://example.com/s.json', 'network'],
    ['file:///etc/passwd', 'file'],
    ['other.json#/x', 'relative'],
    ['../up.json', 'relative'],
    ['urn:example:schema', 'other'],
    ['data:application/json,{}', 'other'],
  ])('%s is %s and never resolved', (ref, kind) => {
    const info = only({ properties: { a: { $ref: ref } } });
    expect(info).toMatchObject({ ref, kind, resolved: false });
    expect(info.reason).toBeTruthy();
  });

  it('reports a reference that is not a URI reference', () => {
    expect(only({ $ref: 'http://[::1' })).toMatchObject({
      kind: 'other',
      resolved: false,
      reason: 'not a valid URI reference',
    });
  });

  it('treats a $dynamicRef to a network URI like a $ref', () => {
    expect(only({ $dynamicRef: 'https://example.com/meta#meta' })).toMatchObject({
      keyword: '$dynamicRef',
      kind: 'network',
      resolved: false,
    });
  });
});

describe('analyzeRefs: embedded $id', () => {
  const schema = {
    $id: 'https://x.example/root.json',
    $defs: {
      inner: {
        $id: 'https://x.example/y',
        $defs: { b: { type: 'string' } },
        properties: { c: { $ref: '#/$defs/b' }, d: { $ref: '#/$defs/inner' } },
      },
      named: { $id: 'named.json', $anchor: 'here' },
    },
    properties: {
      absolute: { $ref: 'https://x.example/y#/$defs/b' },
      relative: { $ref: 'y#/$defs/b' },
      anchored: { $ref: 'named.json#here' },
      wholeResource: { $ref: 'https://x.example/named.json' },
      elsewhere: { $ref: 'z.json' },
      rootPointer: { $ref: '#/$defs/inner' },
    },
  };

  it('counts a reference to an embedded resource as local when its target exists', () => {
    const byAt = new Map(analyzeRefs(schema).map((r) => [r.at, r]));
    expect(byAt.get('/properties/absolute')).toMatchObject({ kind: 'local-pointer', resolved: true });
    expect(byAt.get('/properties/relative')).toMatchObject({ kind: 'local-pointer', resolved: true });
    expect(byAt.get('/properties/anchored')).toMatchObject({ kind: 'anchor', resolved: true });
    expect(byAt.get('/properties/wholeResource')).toMatchObject({ kind: 'local-pointer', resolved: true });
    expect(byAt.get('/properties/rootPointer')).toMatchObject({ kind: 'local-pointer', resolved: true });
  });

  it('resolves a fragment pointer against the enclosing resource, not the document root', () => {
    const byAt = new Map(analyzeRefs(schema).map((r) => [r.at, r]));
    expect(byAt.get('/$defs/inner/properties/c')).toMatchObject({ resolved: true });
    expect(byAt.get('/$defs/inner/properties/d')).toMatchObject({ resolved: false });
  });

  it('classifies a relative reference against a network $id that matches nothing as network', () => {
    const byAt = new Map(analyzeRefs(schema).map((r) => [r.at, r]));
    expect(byAt.get('/properties/elsewhere')).toMatchObject({ kind: 'network', resolved: false });
    expect(byAt.get('/properties/elsewhere')!.reason).toContain('https://x.example/z.json');
  });
});

describe('analyzeRefs: hostile input', () => {
  it('handles 50,000 references quickly', () => {
    const schema = {
      $defs: { a: { $anchor: 'a' } },
      allOf: Array.from({ length: 50_000 }, (_, i) => ({ $ref: i % 2 === 0 ? '#/$defs/a' : '#a' })),
    };
    const started = performance.now();
    const refs = analyzeRefs(schema, { ...DEFAULT_SCHEMA_LIMITS, maxNodes: 100_000 });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(refs).toHaveLength(50_000);
    expect(refs.every((r) => r.resolved)).toBe(true);
  });

  it('stops at the default subschema cap', () => {
    const schema = { allOf: Array.from({ length: 50_000 }, () => ({ $ref: 'https://example.com/s.json' })) };
    const refs = analyzeRefs(schema);
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.length).toBeLessThan(DEFAULT_SCHEMA_LIMITS.maxNodes);
  });

  it('does not recurse on 10,000-deep nesting', () => {
    let schema: Record<string, unknown> = { $ref: '#' };
    for (let i = 0; i < 10_000; i += 1) schema = { properties: { a: schema } };
    expect(() => analyzeRefs(schema)).not.toThrow();
    expect(analyzeRefs(schema, { ...DEFAULT_SCHEMA_LIMITS, maxDepth: 20_000, maxNodes: 20_002 })).toHaveLength(1);
  });

  it('keeps reasons short for huge references', () => {
    const info = only({ $ref: `https://example.com/${'a'.repeat(100_000)}` });
    expect(info.reason!.length).toBeLessThan(400);
  });
});
