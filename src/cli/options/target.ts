import { isRevision, REVISIONS, type Revision } from '../../core/revision.js';
import { parsePatterns } from '../../runner/registry.js';
import { UsageError } from '../usage-error.js';
import type { Command } from './commands.js';
import type { ParsedArgs } from './table.js';

/**
 * --sandbox: a --stdio target runs in a throwaway sandbox, every tool is callable, and each call's file effects are
 * recorded.
 */
export interface SandboxOptions {
  network: boolean;
}

/**
 * A tool whose call changes the server's tool set (list_changed checks); it is called twice, so the change is undone.
 */
export interface ListChangedTrigger {
  name: string;
  arguments: Record<string, unknown>;
}

/** --header "Name: value". */
export function parseHeader(raw: string): [string, string] {
  const colon = raw.indexOf(':');
  const name = colon > 0 ? raw.slice(0, colon).trim() : '';
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
    throw new UsageError(`--header must look like "Name: value", got ${JSON.stringify(raw)}`);
  const value = raw.slice(colon + 1).trim();
  if (/[\r\n\0]/.test(value)) throw new UsageError(`--header value for ${name} contains a line break or NUL`);
  return [name, value];
}

/** --sandbox [--sandbox-network]: an audit of a server we start (stdio, or every stdio server of a fleet). */
export function sandboxOptions(command: Command, args: ParsedArgs): SandboxOptions | undefined {
  if (!args.sandbox) {
    if (args['sandbox-network']) throw new UsageError('--sandbox-network goes with --sandbox');
    return undefined;
  }
  if (command !== 'run' && command !== 'baseline' && command !== 'fleet')
    throw new UsageError(`--sandbox goes with an audit (run, baseline or fleet), not ${command}`);
  if (args.url !== undefined) {
    throw new UsageError(
      '--sandbox runs a server that the audit starts (--stdio); a --url server runs elsewhere and cannot be ' +
        'sandboxed from here',
    );
  }
  if (args['from-snapshot'] !== undefined)
    throw new UsageError('--sandbox needs a live --stdio target: a snapshot calls no tool');
  return { network: Boolean(args['sandbox-network']) };
}

/**
 * --revisions all|<rev,…>: the revisions in REVISIONS order (newest first), each once; only for an audit of a live
 * server.
 */
export function parseRevisions(command: Command, args: ParsedArgs): Revision[] | undefined {
  if (args.revisions === undefined) return undefined;
  const given = parsePatterns(args.revisions.map(String));
  if (given.length === 0)
    throw new UsageError(`--revisions needs all or a list of revisions (${REVISIONS.join(', ')})`);
  const unknown = given.filter((r) => r !== 'all' && !isRevision(r));
  if (unknown.length > 0)
    throw new UsageError(
      `--revisions: unknown revision ${unknown.map((u) => JSON.stringify(u)).join(', ')} (choose all, or from ` +
        `${REVISIONS.join(', ')})`,
    );
  if (command !== 'run' && command !== 'baseline')
    throw new UsageError(`--revisions goes with an audit (run or baseline), not ${command}`);
  if (args['from-snapshot'] !== undefined)
    throw new UsageError('--revisions needs a live target: a snapshot holds one negotiation');
  if (args['protocol-version'] !== 'auto')
    throw new UsageError('--revisions offers each revision itself: leave out --protocol-version');
  return given.includes('all') ? [...REVISIONS] : REVISIONS.filter((wire) => given.includes(wire));
}

export function parseTrigger(name: string | undefined, rawArgs: string | undefined): ListChangedTrigger | undefined {
  if (name === undefined) {
    if (rawArgs !== undefined) throw new UsageError('--list-changed-args needs --list-changed-trigger');
    return undefined;
  }
  if (name.trim() === '') throw new UsageError('--list-changed-trigger needs a tool name');
  let parsed: unknown = {};
  if (rawArgs !== undefined) {
    try {
      parsed = JSON.parse(rawArgs);
    } catch {
      throw new UsageError('--list-changed-args must be a JSON object');
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new UsageError('--list-changed-args must be a JSON object');
  return { name, arguments: parsed as Record<string, unknown> };
}

/** The target's flags that must make sense alone: a command line, an http(s) URL. */
export function checkTargetFlags(args: ParsedArgs): void {
  if (args.stdio !== undefined && args.stdio.trim() === '') throw new UsageError('--stdio needs a command line');
  if (args.url !== undefined && !/^https?:\/\//i.test(args.url))
    throw new UsageError('--url must start with http:// or https://');
}

/** --env NAME=value, for a --stdio target only. */
export function targetEnv(args: ParsedArgs): Record<string, string> {
  const env: Record<string, string> = {};
  for (const raw of args.env ?? []) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(String(raw));
    if (!match)
      throw new UsageError(`--env must look like NAME=value, got ${JSON.stringify(String(raw).split('=')[0])}=…`);
    env[match[1]!] = match[2]!;
  }
  if (Object.keys(env).length > 0 && args.url !== undefined)
    throw new UsageError('--env applies to a --stdio target only');
  return env;
}

/** --header "Name: value", repeated. */
export function targetHeaders(args: ParsedArgs): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const raw of args.header ?? []) {
    const [name, value] = parseHeader(String(raw));
    headers[name] = value;
  }
  return headers;
}
