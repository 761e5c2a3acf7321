import type {
  HostFinding,
  HostResult,
  HostRuleRecord,
  HostsReport,
  HostToolResult,
  HostVerdict,
} from '../model/hosts.js';
import { HOST_PROFILES } from './rules/index.js';
import type { HostName, HostProfile, HostTool } from './types.js';

export interface HostsInput {
  tools: readonly HostTool[];
  serverName: string;
  serverNameFrom: HostsReport['serverNameFrom'];
  hosts: readonly HostName[];
  failOnHost: readonly HostName[];
  listingComplete: boolean;
}

/** Pure: each host's rules over each listed tool. Nothing here is a check; the report's `checks` are untouched. */
export function evaluateHosts(input: HostsInput): HostsReport {
  const profiles = input.hosts.map((host) => HOST_PROFILES[host]);
  return {
    serverName: input.serverName,
    serverNameFrom: input.serverNameFrom,
    failOnHost: [...input.failOnHost],
    listingComplete: input.listingComplete,
    hosts: profiles.map((profile) => judgeHost(profile, input.tools, input.serverName)),
    rules: profiles.flatMap((profile) => profile.rules.map(ruleRecord)),
  };
}

function ruleRecord(rule: HostProfile['rules'][number]): HostRuleRecord {
  return {
    id: rule.id,
    host: rule.host,
    effect: rule.effect,
    title: rule.title,
    sources: rule.sources.map((s) => ({ ...s })),
  };
}

function judgeHost(profile: HostProfile, tools: readonly HostTool[], serverName: string): HostResult {
  const results = tools.map((tool) => judgeTool(profile, tool, serverName));
  const counts: Record<HostVerdict, number> = { works: 0, degraded: 0, blocked: 0 };
  for (const result of results) counts[result.verdict]++;
  return { host: profile.host, label: profile.label, counts, tools: results, notSourced: [...profile.notSourced] };
}

function judgeTool(profile: HostProfile, tool: HostTool, serverName: string): HostToolResult {
  const findings: HostFinding[] = profile.rules.flatMap((rule) =>
    rule
      .check(tool, { serverName })
      .map((hit) => ({ rule: rule.id, effect: rule.effect, message: hit.message, fix: hit.fix })),
  );
  const verdict: HostVerdict = findings.some((f) => f.effect === 'blocked')
    ? 'blocked'
    : findings.length > 0
      ? 'degraded'
      : 'works';
  const schemaFindings = findings.some((f) => f.rule.startsWith(`host.${profile.host}.strict-`));
  const rewritten = schemaFindings && profile.rewrite ? profile.rewrite(tool.inputSchema) : undefined;
  return { tool: tool.name, verdict, findings, ...(rewritten === undefined ? {} : { rewrittenSchema: rewritten }) };
}

/** A listed tool as the hosts see it; anything that is not a named tool is left to the conformance checks. */
export function hostTool(listed: Record<string, unknown>): HostTool | undefined {
  if (typeof listed['name'] !== 'string') return undefined;
  return {
    name: listed['name'],
    ...(typeof listed['description'] === 'string' ? { description: listed['description'] } : {}),
    inputSchema: listed['inputSchema'],
  };
}
