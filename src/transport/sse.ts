import { decodeUtf8 } from './utf8.js';

export interface SseEvent {
  /** The `event` field, `message` when absent. */
  event: string;
  /** All `data` lines of the event joined with `\n`. */
  data: string;
  /** The last event ID in effect when the event was dispatched, when not empty. */
  id?: string;
  /** A data line of the event was not valid UTF-8 (read with U+FFFD in place of the bad bytes). */
  invalidUtf8?: true;
}

const LINE_BREAK = /[\r\n]/g;

/** CR or LF: a line ends there, and neither byte occurs inside a multi-byte UTF-8 sequence. */
const isLineBreakByte = (byte: number) => byte === 0x0a || byte === 0x0d;

/**
 * Incremental parser for `text/event-stream` following the WHATWG HTML "Server-sent events" parsing rules.
 * Accepts text or raw bytes. Bytes are decoded up to the last line break of what arrived (the rest waits for its
 * line to end), so each piece decoded holds whole lines; a piece that is not valid UTF-8 is decoded again line by
 * line, and the events whose data came from an invalid line are marked (transport.utf8).
 */
export class SseParser {
  /** Bytes after the last line break received: an unfinished line, decoded once it ends. */
  private heldBytes: Buffer[] = [];
  private heldLength = 0;
  /** The line being processed came from bytes that were not valid UTF-8. */
  private lineInvalid = false;
  private eventInvalid = false;
  private partialLine = '';
  private skipLeadingLf = false;
  private atStreamStart = true;
  private dataLines: string[] = [];
  private dataLength = 0;
  private eventType = '';
  private lastEventId = '';

  /**
   * Characters held for the event being received (its data so far and the unfinished line): what a size bound applies
   * to.
   */
  get pendingLength(): number {
    return this.dataLength + this.partialLine.length + this.heldLength;
  }

  push(chunk: string | Uint8Array): SseEvent[] {
    if (typeof chunk === 'string') return this.consume(chunk);
    let last = chunk.length - 1;
    while (last >= 0 && !isLineBreakByte(chunk[last]!)) last -= 1;
    if (last < 0) {
      this.hold(chunk);
      return [];
    }
    const complete = this.take(chunk.subarray(0, last + 1));
    this.hold(chunk.subarray(last + 1));
    return this.decodeAndConsume(complete);
  }

  /** Decodes what is held. An event not yet terminated by a blank line is discarded, as the SSE spec requires. */
  end(): SseEvent[] {
    const events = this.decodeAndConsume(this.take(new Uint8Array(0)));
    this.partialLine = '';
    this.resetEvent();
    return events;
  }

  private hold(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.heldBytes.push(Buffer.from(bytes));
    this.heldLength += bytes.length;
  }

  /** The held bytes followed by `bytes`, emptying the hold. */
  private take(bytes: Uint8Array): Uint8Array {
    if (this.heldLength === 0) return bytes;
    const all = Buffer.concat([...this.heldBytes, bytes]);
    this.heldBytes = [];
    this.heldLength = 0;
    return all;
  }

  private decodeAndConsume(bytes: Uint8Array): SseEvent[] {
    const decoded = decodeUtf8(bytes);
    if (decoded.valid) return this.consume(decoded.text);
    // Rare: find the lines that were invalid, each piece ending in one line-break byte.
    const events: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i <= bytes.length; i += 1) {
      if (i < bytes.length && !isLineBreakByte(bytes[i]!)) continue;
      const piece = decodeUtf8(bytes.subarray(start, Math.min(i + 1, bytes.length)));
      this.lineInvalid = !piece.valid;
      events.push(...this.consume(piece.text));
      start = i + 1;
    }
    this.lineInvalid = false;
    return events;
  }

  private consume(text: string): SseEvent[] {
    let input = text;
    if (this.atStreamStart && input.length > 0) {
      this.atStreamStart = false;
      if (input.startsWith('\uFEFF')) input = input.slice(1);
    }
    if (this.skipLeadingLf && input.length > 0) {
      this.skipLeadingLf = false;
      if (input.startsWith('\n')) input = input.slice(1);
    }
    const events: SseEvent[] = [];
    let lineStart = 0;
    LINE_BREAK.lastIndex = 0;
    for (let match = LINE_BREAK.exec(input); match !== null; match = LINE_BREAK.exec(input)) {
      const line = this.partialLine + input.slice(lineStart, match.index);
      this.partialLine = '';
      lineStart = match.index + 1;
      if (match[0] === '\r') {
        if (lineStart === input.length) this.skipLeadingLf = true;
        else if (input[lineStart] === '\n') lineStart += 1;
        LINE_BREAK.lastIndex = lineStart;
      }
      const event = this.processLine(line);
      if (event) events.push(event);
    }
    this.partialLine += input.slice(lineStart);
    return events;
  }

  private processLine(line: string): SseEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        if (this.lineInvalid) this.eventInvalid = true;
        this.dataLines.push(value);
        this.dataLength += value.length + 1;
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastEventId = value;
        break;
      default:
        // `retry` and unknown fields carry nothing we use.
        break;
    }
    return undefined;
  }

  private dispatch(): SseEvent | undefined {
    if (this.dataLines.length === 0) {
      this.resetEvent();
      return undefined;
    }
    const event: SseEvent = { event: this.eventType || 'message', data: this.dataLines.join('\n') };
    if (this.lastEventId !== '') event.id = this.lastEventId;
    if (this.eventInvalid) event.invalidUtf8 = true;
    this.resetEvent();
    return event;
  }

  private resetEvent(): void {
    this.dataLines = [];
    this.dataLength = 0;
    this.eventType = '';
    this.eventInvalid = false;
  }
}
