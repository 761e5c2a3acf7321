import { describe, expect, it } from 'vitest';
import { REVISIONS } from '../core/revision.js';
import { BASE64_PATTERN } from './wire/content-blocks.js';
import { MAX_ISSUES, compiledCount, hasWireSchema, validateWire, type WireSchemaName } from './validator.js';

const ALL_NAMES: WireSchemaName[] = [
  'JSONRPCMessage',
  'JSONRPCRequest',
  'JSONRPCNotification',
  'JSONRPCResultResponse',
  'JSONRPCErrorResponse',
  'DiscoverResult',
  'ServerCapabilities',
  'ListToolsResult',
  'Tool',
  'CallToolResult',
  'ContentBlock',
  'InputRequiredResult',
  'UnsupportedProtocolVersionError',
  'MissingRequiredClientCapabilityError',
  'HeaderMismatchError',
  'InvalidParamsError',
  'MethodNotFoundError',
  'InitializeResult',
  'Implementation',
];

describe('compiled-validator cache', () => {
  it('compiles a name once per wire and reuses it afterwards', () => {
    // Another test file run by this worker process may have compiled it already: at most one compilation each.
    const start = compiledCount();
    validateWire('Tool', '2026-07-28', {});
    const afterLatest = compiledCount();
    expect(afterLatest - start).toBeLessThanOrEqual(1);
    validateWire('Tool', '2026-07-28', { name: 'x', inputSchema: { type: 'object' } });
    validateWire('Tool', '2026-07-28', null);
    expect(compiledCount()).toBe(afterLatest);
    validateWire('Tool', '2025-11-25', {});
    const afterEarlier = compiledCount();
    expect(afterEarlier - afterLatest).toBeLessThanOrEqual(1);
    validateWire('Tool', '2025-11-25', {});
    expect(compiledCount()).toBe(afterEarlier);
  });

  it('hasWireSchema and a refused name compile nothing', () => {
    const start = compiledCount();
    expect(hasWireSchema('ListToolsResult', '2026-07-28')).toBe(true);
    expect(() => validateWire('DiscoverResult', '2025-11-25', {})).toThrow();
    expect(compiledCount()).toBe(start);
  });

  it('rejects names inherited from Object.prototype', () => {
    const name = 'constructor' as WireSchemaName;
    expect(hasWireSchema(name, '2026-07-28')).toBe(false);
    expect(() => validateWire(name, '2026-07-28', {})).toThrow(/constructor/);
  });
});

describe('catalog', () => {
  const pairs = REVISIONS.flatMap((wire) =>
    ALL_NAMES.filter((name) => hasWireSchema(name, wire)).map((name) => [name, wire] as const),
  );

  it('offers every name on 2026-07-28 except InitializeResult', () => {
    expect(ALL_NAMES.filter((name) => !hasWireSchema(name, '2026-07-28'))).toEqual(['InitializeResult']);
  });

  it.each(pairs)('%s (%s) compiles under ajv strict mode and rejects a non-object', (name, wire) => {
    const issues = validateWire(name, wire, 42);
    expect(issues).toContainEqual(expect.objectContaining({ instancePath: '', keyword: 'type' }));
  });
});

describe('issue list', () => {
  it(`is capped at ${MAX_ISSUES}`, () => {
    const tools = Array.from({ length: 120 }, () => ({ inputSchema: null }));
    const issues = validateWire('ListToolsResult', '2026-07-28', {
      resultType: 'complete',
      tools,
      ttlMs: 0,
      cacheScope: 'public',
    });
    expect(issues).toHaveLength(MAX_ISSUES);
    expect(issues[0]?.instancePath).toBe('/tools/0');
  });

  it('holds plain copies of ajv params', () => {
    const [issue] = validateWire('Implementation', '2026-07-28', { name: 'n' });
    expect(issue).toEqual({
      instancePath: '',
      schemaPath: '#/required',
      keyword: 'required',
      params: { missingProperty: 'version' },
      message: "must have required property 'version'",
    });
  });
});

describe('base64 pattern', () => {
  const base64 = new RegExp(BASE64_PATTERN, 'u');

  it.each(['', 'QQ==', 'QUI=', 'QUJD', Buffer.from('any binary \u0000\u00ff').toString('base64')])(
    'accepts %j',
    (value) => {
      expect(base64.test(value)).toBe(true);
    },
  );

  it.each(['Q', 'QQ', 'QQ=', 'QQ===', 'QU JD', 'QUJD\n', 'QUJD\nQUJD', 'QU-_', '====', 'QQ==QUJD'])(
    'rejects %j',
    (value) => {
      expect(base64.test(value)).toBe(false);
    },
  );

  it('stays fast on long hostile input (no catastrophic backtracking)', () => {
    const hostile = `${'A'.repeat(200_000)}=!`;
    const block = { type: 'image', mimeType: 'image/png', data: hostile };
    const started = performance.now();
    const issues = validateWire('ContentBlock', '2026-07-28', block);
    const elapsed = performance.now() - started;
    expect(issues).toContainEqual(expect.objectContaining({ instancePath: '/data', keyword: 'pattern' }));
    expect(elapsed).toBeLessThan(1000);
  });
});
