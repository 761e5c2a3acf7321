import { describe, expect, it } from 'vitest';
import { extensionIdIssues, metaKeyIssues, splitMetaKey } from './meta-key.js';

const rules = (key: string) => metaKeyIssues(key).map((issue) => issue.rule);

describe('_meta key grammar', () => {
  it('accepts the spec examples and the reserved keys', () => {
    for (const key of [
      'progressToken',
      'traceparent',
      'io.modelcontextprotocol/protocolVersion',
      'io.modelcontextprotocol/serverInfo',
      'com.example/priority',
      'com.example.mcp/x',
      'dev.mcp/a-b_c.d',
      'a1/b',
      'x',
      '',
      'io.modelcontextprotocol/',
      'openai/outputTemplate',
    ]) {
      expect(rules(key), key).toEqual([]);
    }
  });

  it('splits at the first slash', () => {
    expect(splitMetaKey('com.example/a/b')).toEqual({ prefix: 'com.example', name: 'a/b' });
    expect(splitMetaKey('plain')).toEqual({ prefix: undefined, name: 'plain' });
    expect(rules('com.example/a/b')).toEqual([]);
  });

  it('flags an empty prefix or an empty label as a prefix problem only', () => {
    expect(rules('/name')).toEqual(['meta.key.prefix']);
    expect(rules('com..example/name')).toEqual(['meta.key.prefix']);
    expect(rules('.com/name')).toEqual(['meta.key.prefix']);
    expect(rules('com.example./name')).toEqual(['meta.key.prefix']);
  });

  it('flags labels that break the label rule', () => {
    expect(rules('1com.example/name')).toEqual(['meta.key.labels']);
    expect(rules('com.example-/name')).toEqual(['meta.key.labels']);
    expect(rules('com.ex_ample/name')).toEqual(['meta.key.labels']);
    expect(rules('https://example.com/x')).toEqual(['meta.key.labels', 'meta.key.name']);
    expect(metaKeyIssues('com.9x.y-/n')[0]!.why).toContain('"9x", "y-"');
  });

  it('flags names that do not start and end with an alphanumeric', () => {
    expect(rules('_fastmcp')).toEqual(['meta.key.name']);
    expect(rules('com.example/_internal')).toEqual(['meta.key.name']);
    expect(rules('com.example/trailing-')).toEqual(['meta.key.name']);
    expect(rules('name.')).toEqual(['meta.key.name']);
    expect(rules('$schema')).toEqual(['meta.key.name']);
  });

  it('does not judge interior name characters (a MAY)', () => {
    expect(rules('a b')).toEqual([]);
    expect(rules('com.example/a:b')).toEqual([]);
  });
});

describe('extension identifiers', () => {
  it('require a prefix and the _meta grammar', () => {
    expect(extensionIdIssues('io.modelcontextprotocol/tasks')).toEqual([]);
    expect(extensionIdIssues('tasks')).toEqual(['it has no prefix (a mandatory "vendor.label/" part)']);
    expect(extensionIdIssues('com..example/x')).toHaveLength(1);
    expect(extensionIdIssues('_tasks')).toHaveLength(2);
  });
});
