import type { Exchange } from '../model/exchange.js';
import type { EffectsLog, FileEffect, RecordedCall, ToolEffects } from '../model/effects.js';
import type { CallInTurn, CallObserver } from '../protocol/call-turns.js';

/** Where the states come from: the sandbox's view of what the server could write. */
export interface EffectsSource<State> {
  snapshot(): Promise<State>;
  changes(before: State, after: State): FileEffect[];
}

/** Changes kept per recorded call, and per tool in the report; the rest are counted. */
const MAX_CHANGES_PER_CALL = 200;
const MAX_CHANGES_PER_TOOL = 50;
const MAX_OUTSIDE_CALLS = 200;

/**
 * Attributes every change in the sandbox to the call in flight when it was made: each call runs alone (CallTurns), and
 * the state is taken before it is sent and once it is answered. A change found before a call that was not there when
 * the previous one was answered was written late, by that call (`after`); one made while a process of the target
 * started, or before the first call, was made outside any call.
 */
export class CallEffects<State> implements CallObserver, EffectsLog {
  private state: State | undefined;
  private lastCall: RecordedCall | undefined;
  private readonly recorded: RecordedCall[] = [];
  private readonly byExchange = new Map<Exchange, RecordedCall>();
  private readonly outside: FileEffect[] = [];
  private outsideDropped = 0;

  constructor(private readonly source: EffectsSource<State>) {}

  /** The state before the target's first process starts. */
  async begin(): Promise<void> {
    this.state = await this.source.snapshot();
  }

  async before(): Promise<void> {
    const delta = await this.advance();
    if (this.lastCall) this.lastCall.after.push(...delta.slice(0, MAX_CHANGES_PER_CALL - this.lastCall.after.length));
    else this.keepOutside(delta);
  }

  async after(call?: CallInTurn): Promise<void> {
    const delta = await this.advance();
    if (!call) {
      this.keepOutside(delta);
      this.lastCall = undefined;
      return;
    }
    const recorded: RecordedCall = {
      tool: call.tool,
      arguments: call.args,
      exchange: call.exchange,
      effects: delta.slice(0, MAX_CHANGES_PER_CALL),
      after: [],
    };
    this.recorded.push(recorded);
    this.byExchange.set(call.exchange, recorded);
    this.lastCall = recorded;
  }

  /** Once the audit is done: what was written after the last call. */
  async end(): Promise<void> {
    await this.before();
  }

  calls(): readonly RecordedCall[] {
    return this.recorded;
  }

  of(exchange: Exchange): RecordedCall | undefined {
    return this.byExchange.get(exchange);
  }

  /** Changes made outside any call (capped; the number left out follows). */
  outsideCalls(): { changes: FileEffect[]; more: number } {
    return { changes: this.outside, more: this.outsideDropped };
  }

  /** report.json's `effects`: per tool, its calls, those that changed something, and the changes with their call. */
  byTool(): Record<string, ToolEffects> {
    const tools: Record<string, ToolEffects> = {};
    const callNumber = new Map<string, number>();
    for (const call of this.recorded) {
      const n = (callNumber.get(call.tool) ?? 0) + 1;
      callNumber.set(call.tool, n);
      const entry = (tools[call.tool] ??= { calls: 0, callsWithChanges: 0, changes: [] });
      entry.calls += 1;
      if (call.effects.length > 0) entry.callsWithChanges += 1;
      const changes = [
        ...call.effects.map((e) => ({ ...e, call: n })),
        ...call.after.map((e) => ({ ...e, call: n, late: true as const })),
      ];
      const room = MAX_CHANGES_PER_TOOL - entry.changes.length;
      entry.changes.push(...changes.slice(0, Math.max(0, room)));
      if (changes.length > room) entry.more = (entry.more ?? 0) + changes.length - Math.max(0, room);
    }
    return tools;
  }

  private async advance(): Promise<FileEffect[]> {
    const now = await this.source.snapshot();
    const delta = this.state === undefined ? [] : this.source.changes(this.state, now);
    this.state = now;
    return delta;
  }

  private keepOutside(delta: FileEffect[]): void {
    const room = MAX_OUTSIDE_CALLS - this.outside.length;
    this.outside.push(...delta.slice(0, Math.max(0, room)));
    this.outsideDropped += Math.max(0, delta.length - Math.max(0, room));
  }
}
