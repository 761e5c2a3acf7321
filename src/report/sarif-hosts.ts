import { createHash } from 'node:crypto';
import type { RunReport } from '../model/report.js';

type Json = Record<string, unknown>;

/**
 * --hosts in SARIF: rule ids of their own (`host.<host>.<rule>`), after the checks' rules. A blocked tool is an error
 * only for a host of --fail-on-host (where it fails the run), a warning otherwise; a degraded one is a note.
 */
export function hostRules(report: RunReport): Json[] {
  return (report.hosts?.rules ?? []).map((rule) => ({
    id: rule.id,
    name: rule.id,
    shortDescription: { text: `${rule.host}: ${rule.title}` },
    fullDescription: { text: `Host compatibility (${rule.host}, ${rule.effect}): ${rule.title}` },
    helpUri: rule.sources[0]!.url,
    help: {
      text: rule.sources.map((s) => `"${s.quote}" (${s.kind}, ${s.url}, read ${s.read})`).join('\n'),
      markdown: rule.sources.map((s) => `> ${s.quote}\n\n— [${s.kind}](${s.url}), read ${s.read}`).join('\n\n'),
    },
    defaultConfiguration: {
      level: rule.effect === 'blocked' ? (report.hosts!.failOnHost.includes(rule.host) ? 'error' : 'warning') : 'note',
    },
    properties: { host: rule.host, effect: rule.effect, tags: ['mcp', 'host-compatibility', rule.host] },
  }));
}

export function hostResults(report: RunReport, firstRuleIndex: number, artifact: string): Json[] {
  const hosts = report.hosts;
  if (!hosts) return [];
  const index = new Map(hosts.rules.map((rule, i) => [rule.id, firstRuleIndex + i]));
  return hosts.hosts.flatMap((host) =>
    host.tools.flatMap((tool) =>
      tool.findings.map((finding) => ({
        ruleId: finding.rule,
        ruleIndex: index.get(finding.rule),
        level: finding.effect === 'blocked' ? (hosts.failOnHost.includes(host.host) ? 'error' : 'warning') : 'note',
        kind: 'fail',
        message: { text: `${host.label}: ${finding.message}\nfix: ${finding.fix}` },
        locations: [
          {
            physicalLocation: { artifactLocation: { uri: artifact } },
            logicalLocations: [{ name: tool.tool, kind: 'function' }],
          },
        ],
        partialFingerprints: {
          'mcpToolsConformance/v1': createHash('sha256')
            .update(`${finding.rule}\u0000${tool.tool}`)
            .digest('hex')
            .slice(0, 32),
        },
        properties: {
          host: host.host,
          verdict: tool.verdict,
          fix: finding.fix,
          ...(tool.rewrittenSchema !== undefined ? { rewrittenSchema: tool.rewrittenSchema } : {}),
        },
      })),
    ),
  );
}
