import { isObject, type JsonRpcId, type Received } from '../jsonrpc.js';
import { AnswerPicker } from './answer.js';
import { warn } from './log.js';
import { SseParser } from './sse.js';
import { REQUEST_TIMEOUT_MS } from './constants.js';
import { RequestFailure, timedOut, type Outgoing, type Transport } from './transport.js';

/** Streamable HTTP: every message is its own POST; a request's answer comes as JSON or as an SSE stream. */
export class HttpTransport implements Transport {
  readonly kind = 'http';

  /** `refusesSse`: the no-sse-support defect, which reads application/json answers only. */
  constructor(private readonly url: string, private readonly refusesSse = false) {}

  async request(message: Outgoing, id: JsonRpcId, signal: AbortSignal): Promise<Received> {
    try {
      const response = await this.post(message, signal);
      const picker = new AnswerPicker(id);
      if (this.refusesSse && isEventStream(response)) throw new RequestFailure('invalid-response', 'a text/event-stream answer is not supported');
      const answer = isEventStream(response)
        ? await answerFromStream(response, picker)
        : answerFromJson(await response.text(), picker);
      if (answer) return answer;
      throw new RequestFailure('invalid-response', `HTTP ${response.status} without a JSON-RPC response to id ${JSON.stringify(id)}`);
    } catch (error) {
      throw asFailure(error, signal);
    }
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
    return fetch(this.url, { method: message.httpMethod ?? 'POST', headers: message.headers, body: message.bytes, signal });
  }
}

function isEventStream(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
}

async function answerFromStream(response: Response, picker: AnswerPicker): Promise<Received | undefined> {
  if (!response.body) return undefined;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      const events = done ? parser.end() : parser.push(decoder.decode(value, { stream: true }));
      for (const data of events) {
        const answer = pick(parseJson(data), picker);
        if (answer) return answer;
      }
      if (done) return picker.idless();
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
