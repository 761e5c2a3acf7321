import { appendFileSync } from 'node:fs';
import type { SeenMessage, SentNotification } from '../model/client-observation.js';
import { decodeUtf8 } from '../transport/utf8.js';

/** Messages kept per audit: a flooding client is reported, not remembered whole. */
export const MAX_SEEN_MESSAGES = 5_000;
/** Text kept of a message that is not JSON. */
const RAW_KEPT = 2_000;

/** Turns received bytes into a SeenMessage (JSON or raw text, UTF-8 validity) and keeps it, in arrival order. */
export class Recorder {
  readonly seen: SeenMessage[] = [];
  readonly sent: SentNotification[] = [];
  dropped = 0;
  private seq = 0;

  /**
   * `timeOrigin`: the epoch milliseconds times count from. With `file`, every message is also appended to it as one
   * JSON line (the stdio server's report to the audit).
   */
  constructor(
    private readonly timeOrigin: number,
    private readonly file?: string,
  ) {}

  now(): number {
    return Math.round((performance.timeOrigin + performance.now() - this.timeOrigin) * 10) / 10;
  }

  receive(
    bytes: Uint8Array,
    transport: SeenMessage['transport'],
    connection: string,
    http?: SeenMessage['http'],
  ): SeenMessage {
    const decoded = decodeUtf8(bytes);
    const entry: SeenMessage = {
      seq: ++this.seq,
      at: new Date().toISOString(),
      t: this.now(),
      transport,
      connection,
      ...(http ? { http } : {}),
    };
    try {
      entry.message = JSON.parse(decoded.text);
    } catch {
      entry.raw = decoded.text.slice(0, RAW_KEPT);
    }
    if (!decoded.valid) entry.invalidUtf8 = true;
    if (this.seen.length < MAX_SEEN_MESSAGES) this.seen.push(entry);
    else this.dropped += 1;
    return entry;
  }

  /** A notification the scripted server sent on its own (over stdio also reported to the audit, as a `sent` line). */
  notified(connection: string, message: Record<string, unknown>): void {
    const entry: SentNotification = { at: new Date().toISOString(), t: this.now(), connection, message };
    this.sent.push(entry);
    if (this.file) appendFileSync(this.file, JSON.stringify({ sent: entry }) + '\n');
  }

  /** The scripted server's answer (none for a notification); over stdio this also reports the message to the audit. */
  answered(entry: SeenMessage, reply: SeenMessage['reply'] | undefined): void {
    if (reply) entry.reply = reply;
    entry.answeredT = this.now();
    this.report(entry);
  }

  /** A request that stays unanswered while its stream is open (subscriptions/listen): reported, still in flight. */
  streaming(entry: SeenMessage): void {
    this.report(entry);
  }

  private report(entry: SeenMessage): void {
    if (this.file && entry.seq <= MAX_SEEN_MESSAGES) appendFileSync(this.file, JSON.stringify(entry) + '\n');
  }
}
