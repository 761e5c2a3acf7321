import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from './origin.js';

describe('isLoopbackHost', () => {
  it.each(['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '[::1]', '::1'])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each(['0.0.0.0', '10.0.0.1', 'example.com', 'localhost.example.com', '127.0.0.1.nip.io', '[::2]', '128.0.0.1'])(
    '%s is not',
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
    },
  );
});
