import { describe, expect, it } from 'vitest';
import { scrubSecrets, secretValues } from './scrub.js';

describe('secret values never reach a report', () => {
  it('collects header and env values (and the words of a "Bearer <token>" value), longest first, skipping tiny ones', () => {
    expect(secretValues({ Authorization: 'Bearer s3cr3t-t0ken' }, { API_KEY: 'k3y-value', DEBUG: '1' })).toEqual([
      'Bearer s3cr3t-t0ken',
      's3cr3t-t0ken',
      'k3y-value',
      'Bearer',
    ]);
  });

  it('replaces every occurrence in strings and keys at any depth, without touching the input', () => {
    const input = {
      message: 'echoed s3cr3t-t0ken twice: s3cr3t-t0ken',
      evidence: [{ data: { 's3cr3t-t0ken': ['x s3cr3t-t0ken y'] } }],
      n: 4,
    };
    const scrubbed = scrubSecrets(input, ['s3cr3t-t0ken']);
    expect(JSON.stringify(scrubbed)).not.toContain('s3cr3t-t0ken');
    expect(scrubbed).toEqual({
      message: 'echoed [redacted] twice: [redacted]',
      evidence: [{ data: { '[redacted]': ['x [redacted] y'] } }],
      n: 4,
    });
    expect(input.message).toContain('s3cr3t-t0ken');
  });

  it('survives cycles and returns the value itself when there is nothing to hide', () => {
    const cyclic: Record<string, unknown> = { a: 'secret-value' };
    cyclic.self = cyclic;
    const scrubbed = scrubSecrets(cyclic, ['secret-value']) as Record<string, unknown>;
    expect(scrubbed.a).toBe('[redacted]');
    expect(scrubbed.self).toBe(scrubbed);
    expect(scrubSecrets(cyclic, [])).toBe(cyclic);
  });
});
