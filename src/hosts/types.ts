/**
 * Host compatibility: what a host (Claude Code, an OpenAI strict function call, Gemini CLI, Cursor, VS Code) does with
 * a listed tool. A separate axis from conformance: nothing here is a check, and nothing here changes a check's verdict.
 */

import type { HostName, HostVerdict, RuleSource } from '../model/hosts.js';

export { HOST_NAMES, isHostName, type HostName, type HostVerdict, type RuleSource } from '../model/hosts.js';

/**
 * What a tool looks like to the hosts: the listing's fields, and the name the user gave the server in the host's
 * config.
 */
export interface HostTool {
  name: string;
  description?: string;
  inputSchema: unknown;
}

export interface RuleContext {
  /** The server's name in the host's configuration (the `mcpServers` key), which hosts put in front of tool names. */
  serverName: string;
}

/**
 * One reason a rule applies to a tool: what the host does, the smallest fix, and for a schema rewrite the schema sent.
 */
export interface RuleHit {
  message: string;
  fix: string;
}

export interface HostRule {
  /** `host.<host>.<slug>`: also the SARIF rule id. */
  id: string;
  host: HostName;
  effect: Exclude<HostVerdict, 'works'>;
  title: string;
  sources: readonly RuleSource[];
  check(tool: HostTool, context: RuleContext): RuleHit[];
}

export interface HostProfile {
  host: HostName;
  /** What the profile stands for: the host, and the model API whose limits it passes on. */
  label: string;
  rules: readonly HostRule[];
  /** The schema the host could be sent instead, where its rules' schema findings can be fixed mechanically. */
  rewrite?(inputSchema: unknown): unknown;
  /** Limits heard of for this host that no primary source we could read states: left out, listed in the report. */
  notSourced: readonly string[];
}
