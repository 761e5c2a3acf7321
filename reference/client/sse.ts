/** Incremental `text/event-stream` parsing: yields the `data` of each event; comment lines are skipped. */
export class SseParser {
  /** The last `id:` field seen (what a 2025-11-25 client would resume from; 2026-07-28 streams are not resumable). */
  lastEventId: string | undefined;
  private buffer = '';
  private data: string[] = [];

  /** Feeds decoded text; returns the data of every event it completed. */
  push(text: string): string[] {
    this.buffer += text;
    const events: string[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match) break;
      // A lone CR at the end may be the first half of CRLF split across chunks.
      if (match[0] === '\r' && match.index === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      this.line(line, events);
    }
    return events;
  }

  /** The stream ended: an event still missing its blank line is delivered anyway. */
  end(): string[] {
    const events: string[] = [];
    if (this.buffer !== '') this.line(this.buffer.replace(/\r$/, ''), events);
    this.buffer = '';
    this.line('', events);
    return events;
  }

  private line(line: string, events: string[]): void {
    if (line === '') {
      if (this.data.length > 0) events.push(this.data.join('\n'));
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.lastEventId = value;
  }
}
