// What both HTTP transports share: Streamable HTTP (http.ts) and the deprecated HTTP+SSE (http-sse.ts).
import { createRequire } from 'node:module';
import type { Dispatcher, Pool as PoolType } from 'undici';
import { isObject } from '../core/jsonrpc.js';
import { TargetNotStartedError } from './types.js';
import type { TransportFailure } from '../model/exchange.js';
import { REDACTED } from '../model/redacted.js';
import type { RequestGate } from './request-gate.js';

/** What an HTTP target (Streamable HTTP, or the deprecated HTTP+SSE) is reached with. */
export interface HttpTargetOptions {
  url: string;
  /** User-supplied headers (e.g. `--header`): sent on every request, redacted in evidence. */
  headers?: Record<string, string>;
  /** Bounds each request. */
  timeoutMs: number;
  /** Bounds each message; defaults to DEFAULT_MAX_MESSAGE_BYTES. */
  maxMessageBytes?: number;
  /** Shared by every connection of a run (--max-rps, Retry-After); defaults to a private one with no cap. */
  gate?: RequestGate;
  /** Kept-alive connections of this client (--http-connections; default 1). */
  connections?: number;
}

export const Pool = loadPool();
export type Pool = PoolType;

/**
 * undici's Pool with the request API, without the package index: the index also loads fetch, WebSocket, caches and
 * mocks (~75 ms of start-up against ~30 ms). This is what the index itself does for Pool (undici is pinned to an exact
 * version); should its layout ever differ, the index is loaded instead.
 */
function loadPool(): typeof PoolType {
  const requireCjs = createRequire(import.meta.url);
  try {
    const pool = requireCjs('undici/lib/dispatcher/pool.js') as typeof PoolType;
    const dispatcher = requireCjs('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
    if (!('request' in dispatcher.prototype))
      Object.assign(dispatcher.prototype, requireCjs('undici/lib/api/index.js'));
    if (typeof pool.prototype.request === 'function') return pool;
  } catch {
    // fall through to the package index
  }
  return (requireCjs('undici') as typeof import('undici')).Pool;
}

/** A kept-alive connection to the target's origin; undici's own timers are off (each request has one timer of ours). */
export function originPool(url: URL, connections = 1): Pool {
  return new Pool(url.origin, { headersTimeout: 0, bodyTimeout: 0, connections });
}

/** Raw bodies kept as evidence are cut to this many characters. */
export const RAW_BODY_LIMIT = 4096;
const SECRET_RESPONSE_HEADER = /cookie|authorization|token|secret|api-?key/i;

export class ResponseTooLargeError extends Error {
  constructor(limit: number) {
    super(`response body exceeds ${limit} bytes`);
  }
}

export interface OutgoingHeader {
  name: string;
  value: string;
  secret: boolean;
}

/**
 * Base headers, then user headers (`--header`: secret, redacted in evidence), then per-request protocol headers; later
 * ones win, names compared case-insensitively.
 */
export function outgoingHeaders(
  base: Record<string, string>,
  user: Record<string, string> = {},
  perRequest: Record<string, string> = {},
): OutgoingHeader[] {
  const merged = new Map<string, OutgoingHeader>();
  const add = (source: Record<string, string>, secret: boolean): void => {
    for (const [name, value] of Object.entries(source)) merged.set(name.toLowerCase(), { name, value, secret });
  };
  add(base, false);
  add(user, true);
  add(perRequest, false);
  return [...merged.values()];
}

/** The headers as sent. */
export function sentHeaders(headers: readonly OutgoingHeader[]): Record<string, string> {
  return Object.fromEntries(headers.map((h) => [h.name, h.value]));
}

/** The headers as recorded in evidence: user-supplied values redacted. */
export function recordedRequestHeaders(headers: readonly OutgoingHeader[]): Record<string, string> {
  return Object.fromEntries(headers.map((h) => [h.name, h.secret ? REDACTED : h.value]));
}

export function recordedResponseHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const recorded: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    recorded[lower] = SECRET_RESPONSE_HEADER.test(lower) ? REDACTED : Array.isArray(value) ? value.join(', ') : value;
  }
  return recorded;
}

export function mediaType(contentType: string | string[] | undefined): string {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  return (value ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

export function truncate(text: string): string {
  return text.length > RAW_BODY_LIMIT ? text.slice(0, RAW_BODY_LIMIT) : text;
}

function errorCode(error: unknown): string | undefined {
  if (!isObject(error)) return undefined;
  if (typeof error.code === 'string') return error.code;
  if (Array.isArray(error.errors)) return errorCode(error.errors[0]);
  return errorCode(error.cause);
}

export function failureFromError(error: unknown): TransportFailure {
  if (error instanceof ResponseTooLargeError) return { kind: 'too-large', message: error.message };
  const code = errorCode(error);
  const detail = error instanceof Error ? error.message : String(error);
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT')
    return { kind: 'timeout', message: detail };
  return { kind: 'connection', message: code ? `${code}: ${detail}` : detail };
}

export function parseTargetUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetNotStartedError(`invalid URL: ${describeUrl(raw)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TargetNotStartedError(`unsupported URL scheme ${url.protocol} (only http: and https:)`);
  }
  return url;
}

/** The URL for reports: userinfo and query-string values replaced, since they often carry credentials. */
export function describeUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return '<unparseable URL>';
  }
  const userinfo = url.username || url.password ? `${REDACTED}@` : '';
  return `${url.protocol}//${userinfo}${url.host}${describePath(url)}`;
}

/** The path and query of a URL for reports, query-string values replaced. */
export function describePath(url: URL): string {
  const query = [...url.searchParams.keys()].map((key) => `${encodeURIComponent(key)}=${REDACTED}`).join('&');
  return `${url.pathname}${query ? `?${query}` : ''}`;
}
