import { isObject, type JsonRpcId, type Received } from '../../src/core/jsonrpc.js';
import { AnswerPicker } from './answer.js';
import { warn } from './log.js';
import { SseParser } from './sse.js';
import { REQUEST_TIMEOUT_MS } from './constants.js';
import { RequestFailure, timedOut, type Outgoing, type Transport } from './transport.js';

/** Streamable HTTP: every message is its own POST; a request's answer comes as JSON or as an SSE stream. */
export class HttpTransport implements Transport {
  readonly kind = 'http';

  /**
   * Defects: `refusesSse` (no-sse-support) reads application/json answers only; `resumesCutStreams`
   * (resumes-cut-stream) resumes a stream that ended before its response with GET and Last-Event-ID, as 2025-11-25
   * allowed.
   */
  constructor(
    private readonly url: string,
    private readonly defects: { refusesSse?: boolean; resumesCutStreams?: boolean } = {},
  ) {}

  async request(message: Outgoing, id: JsonRpcId, signal: AbortSignal): Promise<Received> {
    try {
      const response = await this.post(message, signal);
      const picker = new AnswerPicker(id);
      if (this.defects.refusesSse && isEventStream(response))
        throw new RequestFailure('invalid-response', 'a text/event-stream answer is not supported');
      let answer: Received | undefined;
      if (isEventStream(response)) {
        const streamed = await answerFromStream(response, picker);
        answer = streamed.answer;
        if (!answer && this.defects.resumesCutStreams && streamed.lastEventId !== undefined)
          answer = await this.resume(message, streamed.lastEventId, picker, signal);
      } else {
        answer = answerFromJson(await response.text(), picker);
      }
      if (answer) return answer;
      // A stream cut short is lost with its response: 2026-07-28 streams are not resumable.
      throw new RequestFailure(
        'invalid-response',
        `HTTP ${response.status} without a JSON-RPC response to id ${JSON.stringify(id)}`,
      );
    } catch (error) {
      throw asFailure(error, signal);
    }
  }

  /** The resumes-cut-stream defect: GET the endpoint with Last-Event-ID and read the answer from what it streams. */
  private async resume(
    message: Outgoing,
    lastEventId: string,
    picker: AnswerPicker,
    signal: AbortSignal,
  ): Promise<Received | undefined> {
    const version = message.headers['MCP-Protocol-Version'];
    const headers: Record<string, string> = {
      Accept: 'text/event-stream',
      'Last-Event-ID': lastEventId,
      ...(version ? { 'MCP-Protocol-Version': version } : {}),
    };
    const response = await fetch(this.url, { method: 'GET', headers, signal });
    if (isEventStream(response)) return (await answerFromStream(response, picker)).answer;
    await response.arrayBuffer();
    return undefined;
  }

  async send(message: Outgoing): Promise<void> {
    const signal = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    try {
      const response = await this.post(message, signal);
      await response.arrayBuffer();
    } catch (error) {
      warn(`sending a message without an answer failed: ${asFailure(error, signal).message}`);
    }
  }

  listen(message: Outgoing, _id: JsonRpcId, onNotification: (message: Received) => void): () => Promise<void> {
    const abort = new AbortController();
    void (async () => {
      try {
        const response = await this.post(message, abort.signal);
        if (!response.body || !isEventStream(response)) return;
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        const parser = new SseParser();
        for (;;) {
          const { done, value } = await reader.read();
          for (const data of done ? parser.end() : parser.push(decoder.decode(value, { stream: true }))) {
            const parsed = parseJson(data);
            if (isObject(parsed) && typeof parsed.method === 'string') onNotification(parsed);
          }
          if (done) return;
        }
      } catch {
        // Closed by us, or the server went away: the subscription simply ends.
      }
    })();
    return async () => abort.abort();
  }

  async close(): Promise<void> {}

  private post(message: Outgoing, signal: AbortSignal): Promise<Response> {
    return fetch(this.url, {
      method: message.httpMethod ?? 'POST',
      headers: message.headers,
      body: message.bytes,
      signal,
    });
  }
}

function isEventStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
}

/** The answer an SSE stream carried, or the last event id it had when it ended without one. */
async function answerFromStream(
  response: Response,
  picker: AnswerPicker,
): Promise<{ answer?: Received; lastEventId?: string }> {
  if (!response.body) return {};
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      const events = done ? parser.end() : parser.push(decoder.decode(value, { stream: true }));
      for (const data of events) {
        const answer = pick(parseJson(data), picker);
        if (answer) return { answer };
      }
      if (done) {
        const answer = picker.idless();
        return answer ? { answer } : parser.lastEventId === undefined ? {} : { lastEventId: parser.lastEventId };
      }
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

function answerFromJson(text: string, picker: AnswerPicker): Received | undefined {
  return pick(parseJson(text), picker) ?? picker.idless();
}

/** A body or event holds one message, or an array of them (the answer to a batch). */
function pick(payload: unknown, picker: AnswerPicker): Received | undefined {
  return (Array.isArray(payload) ? payload : [payload]).find((message): message is Received => picker.offer(message));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    if (text.trim() !== '') warn(`ignoring a body or event that is not JSON: ${text.slice(0, 200)}`);
    return undefined;
  }
}

function asFailure(error: unknown, signal: AbortSignal): RequestFailure {
  if (error instanceof RequestFailure) return error;
  if (signal.aborted) return timedOut();
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return new RequestFailure('unreachable', `${error instanceof Error ? error.message : String(error)}${cause}`);
}
