import { createHmac, randomBytes, timingSafeEqual, createHash } from 'node:crypto';

/** What a confirm_action requestState is bound to. */
export interface StateBinding {
  tool: string;
  argumentsDigest: string;
}

interface StatePayload extends StateBinding {
  expiresAt: number;
}

const STATE_TTL_MS = 10 * 60_000;

/** HMAC-protected MRTR requestState, keyed per server process. */
export class RequestStateSigner {
  private readonly key: Buffer;

  constructor(
    key: Buffer = randomBytes(32),
    private readonly now: () => number = Date.now,
  ) {
    this.key = key;
  }

  issue(binding: StateBinding): string {
    const payload: StatePayload = { ...binding, expiresAt: this.now() + STATE_TTL_MS };
    const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  /** True when the state is authentic, unexpired and bound to exactly this call. */
  verify(state: string, expected: StateBinding): boolean {
    const [body, signature, ...rest] = state.split('.');
    if (body === undefined || signature === undefined || rest.length > 0) return false;
    const actual = Buffer.from(signature, 'base64url');
    const wanted = Buffer.from(this.sign(body), 'base64url');
    if (actual.length !== wanted.length || !timingSafeEqual(actual, wanted)) return false;
    const payload = parsePayload(body);
    return (
      payload !== undefined &&
      payload.expiresAt > this.now() &&
      payload.tool === expected.tool &&
      payload.argumentsDigest === expected.argumentsDigest
    );
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}

function parsePayload(body: string): StatePayload | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    if (typeof value !== 'object' || value === null) return undefined;
    const { tool, argumentsDigest, expiresAt } = value as Record<string, unknown>;
    if (typeof tool !== 'string' || typeof argumentsDigest !== 'string' || typeof expiresAt !== 'number')
      return undefined;
    return { tool, argumentsDigest, expiresAt };
  } catch {
    return undefined;
  }
}

/** Digest of a JSON value that does not depend on object key order. */
export function digestOf(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('base64url');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
