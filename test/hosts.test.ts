import { describe, expect, it } from 'vitest';
import { evaluateHosts } from '../src/hosts/evaluate.js';
import { HOST_PROFILES } from '../src/hosts/rules/index.js';
import { sourceProblems } from '../src/hosts/sources.js';
import { HOST_NAMES, type HostName } from '../src/model/hosts.js';
// @ts-expect-error a fixture module without types
import { HOST_RULE_TOOLS, SERVER_NAME } from './fixtures/host-rules-tools.mjs';

interface FixtureTool {
  tool: { name: string; description?: string; inputSchema: unknown };
  hosts: Record<HostName, string>;
  rules: string[];
}
const FIXTURES = HOST_RULE_TOOLS as FixtureTool[];
const ALL_RULES = HOST_NAMES.flatMap((host) => HOST_PROFILES[host].rules);

const judged = evaluateHosts({
  tools: FIXTURES.map((f) => f.tool),
  serverName: SERVER_NAME,
  serverNameFrom: 'option',
  hosts: HOST_NAMES,
  failOnHost: [],
  listingComplete: true,
});
const resultOf = (host: HostName, tool: string) => judged.hosts.find((h) => h.host === host)!.tools.find((t) => t.tool === tool)!;

describe('host rules, each held to a fixture tool that breaks it alone', () => {
  it.each(FIXTURES.map((f) => [f.tool.name.slice(0, 24), f] as const))('%s: the verdict of every host, and exactly its rules', (_name, fixture) => {
    const verdicts = Object.fromEntries(HOST_NAMES.map((host) => [host, resultOf(host, fixture.tool.name).verdict]));
    expect(verdicts).toEqual(fixture.hosts);
    const fired = HOST_NAMES.flatMap((host) => resultOf(host, fixture.tool.name).findings.map((f) => f.rule));
    expect([...new Set(fired)].sort()).toEqual([...fixture.rules].sort());
  });

  it('every rule is broken by some fixture tool, and each fixture tool breaks one kind of rule', () => {
    const covered = new Set(FIXTURES.flatMap((f) => f.rules));
    expect(ALL_RULES.map((r) => r.id).filter((id) => !covered.has(id))).toEqual([]);
    for (const fixture of FIXTURES) expect(new Set(fixture.rules.map((id) => id.split('.').slice(2).join('.').replace('characters', 'pattern'))).size).toBeLessThanOrEqual(1);
  });

  it('the clean tool works on every host', () => {
    for (const host of HOST_NAMES) expect(resultOf(host, 'clean_echo')).toEqual({ tool: 'clean_echo', verdict: 'works', findings: [] });
  });

  it('gives the smallest fix for each finding', () => {
    expect(resultOf('claude', 'files.read').findings[0]!.fix).toBe('rename `files.read` → `files_read`');
    expect(resultOf('openai', 'open_filter').findings[0]!.fix).toBe('add `additionalProperties: false` to `/properties/filter` (name the keys it takes as properties)');
    expect(resultOf('claude', FIXTURES[6]!.tool.name).findings[0]!.fix).toMatch(/^shorten `long_n+` to 114 characters or fewer/);
    for (const host of judged.hosts) for (const tool of host.tools) for (const finding of tool.findings) expect(finding.fix.length).toBeGreaterThan(5);
  });

  it('shows the strict schema where the rewrite is mechanical, and that schema passes the strict rules', () => {
    const optional = resultOf('openai', 'optional_query');
    expect(optional.rewrittenSchema).toEqual({ type: 'object', properties: { query: { type: ['string', 'null'] } }, required: ['query'], additionalProperties: false });
    expect(resultOf('openai', 'one_of_value').rewrittenSchema).toEqual({
      type: 'object', properties: { value: { anyOf: [{ type: 'string' }, { type: 'number' }] } }, required: ['value'], additionalProperties: false,
    });
    // An object open to other keys cannot be closed without changing what it takes: no rewrite.
    expect(resultOf('openai', 'open_filter').rewrittenSchema).toBeUndefined();
    const again = evaluateHosts({
      tools: [{ name: 'q', description: 'd', inputSchema: optional.rewrittenSchema }, { name: 'v', description: 'd', inputSchema: resultOf('openai', 'one_of_value').rewrittenSchema }],
      serverName: SERVER_NAME, serverNameFrom: 'option', hosts: ['openai'], failOnHost: [], listingComplete: true,
    });
    expect(again.hosts[0]!.tools.map((t) => t.verdict)).toEqual(['works', 'works']);
  });

  it('counts the verdicts per host and lists the rules judged with their sources', () => {
    const claude = judged.hosts.find((h) => h.host === 'claude')!;
    expect(claude.counts).toEqual({ works: 9, degraded: 1, blocked: 4 });
    expect(judged.rules.map((r) => r.id)).toEqual(ALL_RULES.map((r) => r.id));
    expect(judged.hosts.find((h) => h.host === 'cursor')!.notSourced.length).toBeGreaterThan(0);
  });
});

describe('rule sources', () => {
  it('every rule has a URL, an exact quote and the date it was read, and an id of its host', () => {
    for (const rule of ALL_RULES) {
      expect(sourceProblems(rule)).toEqual([]);
      expect(rule.id.startsWith(`host.${rule.host}.`)).toBe(true);
    }
    expect(new Set(ALL_RULES.map((r) => r.id)).size).toBe(ALL_RULES.length);
  });

  it('catches a rule that lacks a URL, a quote or a date', () => {
    const source = { url: 'https://example.org/docs', kind: 'documentation' as const, quote: 'Names must be short enough.', read: '2026-12-07' };
    expect(sourceProblems({ id: 'host.x.a', sources: [] })).toEqual(['host.x.a: no source']);
    expect(sourceProblems({ id: 'host.x.a', sources: [{ ...source, url: '' }] })).toEqual(['host.x.a source 1: no https URL']);
    expect(sourceProblems({ id: 'host.x.a', sources: [{ ...source, quote: '' }] })).toEqual(['host.x.a source 1: no quote']);
    expect(sourceProblems({ id: 'host.x.a', sources: [{ ...source, read: 'today' }] })).toEqual(['host.x.a source 1: no date read']);
  });
});
