import { describe, expect, it } from 'vitest';
import { redactCommandLine, redactUrl } from './redact.js';

describe('redactCommandLine', () => {
  it('hides values of secret-looking flags and env assignments, keeps the rest', () => {
    expect(redactCommandLine('API_KEY=abc123 node s.js --token xyz --api-key=k1 --port 3000 --password  hunter2')).toBe(
      'API_KEY=[redacted] node s.js --token [redacted] --api-key=[redacted] --port 3000 --password  [redacted]',
    );
  });
  it('leaves ordinary command lines alone', () => {
    expect(redactCommandLine('npx -y @modelcontextprotocol/server-memory')).toBe(
      'npx -y @modelcontextprotocol/server-memory',
    );
  });
});

describe('redactUrl', () => {
  it('drops userinfo and query values', () => {
    expect(redactUrl('https://user:pw@example.com/mcp?key=abc&x=1')).toBe(
      'https://redacted@example.com/mcp?key=redacted&x=redacted',
    );
    expect(redactUrl('http://127.0.0.1:3000/mcp')).toBe('http://127.0.0.1:3000/mcp');
  });
});
