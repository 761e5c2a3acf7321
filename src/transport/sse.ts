export interface SseEvent {
  /** The `event` field, `message` when absent. */
  event: string;
  /** All `data` lines of the event joined with `\n`. */
  data: string;
  /** The last event ID in effect when the event was dispatched, when not empty. */
  id?: string;
}

const LINE_BREAK = /[\r\n]/g;

/**
 * Incremental parser for `text/event-stream` following the WHATWG HTML "Server-sent events" parsing rules.
 * Accepts text or raw bytes; bytes are decoded as streaming UTF-8.
 */
export class SseParser {
  private readonly decoder = new TextDecoder('utf-8');
  private partialLine = '';
  private skipLeadingLf = false;
  private atStreamStart = true;
  private dataLines: string[] = [];
  private dataLength = 0;
  private eventType = '';
  private lastEventId = '';

  /** Characters held for the event being received (its data so far and the unfinished line): what a size bound applies to. */
  get pendingLength(): number {
    return this.dataLength + this.partialLine.length;
  }

  push(chunk: string | Uint8Array): SseEvent[] {
    const text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    return this.consume(text);
  }

  /** Flushes the decoder. An event not yet terminated by a blank line is discarded, as the SSE spec requires. */
  end(): SseEvent[] {
    const events = this.consume(this.decoder.decode());
    this.partialLine = '';
    this.resetEvent();
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
    this.resetEvent();
    return event;
  }

  private resetEvent(): void {
    this.dataLines = [];
    this.dataLength = 0;
    this.eventType = '';
  }
}
