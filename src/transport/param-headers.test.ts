import { describe, expect, it } from 'vitest';
import { findHeaderAnnotations, paramHeaders } from './param-headers.js';

const executeSql = {
  type: 'object',
  properties: {
    region: { type: 'string', 'x-mcp-header': 'Region' },
    query: { type: 'string' },
  },
  required: ['region', 'query'],
};

describe('paramHeaders', () => {
  it('mirrors the spec example', () => {
    expect(paramHeaders(executeSql, { region: 'us-west1', query: 'SELECT 1' })).toEqual({
      'Mcp-Param-Region': 'us-west1',
    });
  });

  it('follows nested properties chains to the value at the same path', () => {
    const schema = {
      type: 'object',
      properties: {
        target: {
          type: 'object',
          properties: {
            tenant: { type: 'object', properties: { id: { type: 'string', 'x-mcp-header': 'TenantId' } } },
          },
        },
      },
    };
    expect(findHeaderAnnotations(schema)).toEqual([{ path: ['target', 'tenant', 'id'], name: 'TenantId' }]);
    expect(paramHeaders(schema, { target: { tenant: { id: 'acme' } } })).toEqual({ 'Mcp-Param-TenantId': 'acme' });
    expect(paramHeaders(schema, { target: { tenant: 'acme' } })).toEqual({});
    expect(paramHeaders(schema, { tenant: { id: 'acme' } })).toEqual({});
  });

  it('ignores annotations that are not reachable through properties alone', () => {
    const schema = {
      type: 'object',
      'x-mcp-header': 'Root',
      properties: {
        list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } },
        choice: { anyOf: [{ type: 'string', 'x-mcp-header': 'Choice' }] },
        ref: { $ref: '#/$defs/flag' },
        extra: { type: 'object', additionalProperties: { type: 'string', 'x-mcp-header': 'Extra' } },
        cond: { if: { type: 'string' }, then: { 'x-mcp-header': 'Then' } },
      },
      $defs: { flag: { type: 'boolean', 'x-mcp-header': 'Flag' } },
    };
    expect(findHeaderAnnotations(schema)).toEqual([]);
    expect(paramHeaders(schema, { list: ['a'], choice: 'b', ref: true, extra: { k: 'v' }, cond: 'c' })).toEqual({});
  });

  it('omits absent and null values', () => {
    expect(paramHeaders(executeSql, { query: 'SELECT 1' })).toEqual({});
    expect(paramHeaders(executeSql, { region: null, query: 'SELECT 1' })).toEqual({});
    expect(paramHeaders(executeSql, undefined)).toEqual({});
  });

  it('converts integers and booleans and encodes unsafe strings', () => {
    const schema = {
      type: 'object',
      properties: {
        count: { type: 'integer', 'x-mcp-header': 'Count' },
        dryRun: { type: 'boolean', 'x-mcp-header': 'DryRun' },
        greeting: { type: 'string', 'x-mcp-header': 'Greeting' },
      },
    };
    expect(paramHeaders(schema, { count: -7, dryRun: false, greeting: 'Hello, 世界' })).toEqual({
      'Mcp-Param-Count': '-7',
      'Mcp-Param-DryRun': 'false',
      'Mcp-Param-Greeting': '=?base64?SGVsbG8sIOS4lueVjA==?=',
    });
  });

  it('ignores invalid annotation values and keeps the first of case-insensitive duplicates', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'string', 'x-mcp-header': 'Zone' },
        b: { type: 'string', 'x-mcp-header': 'zone' },
        c: { type: 'string', 'x-mcp-header': '' },
        d: { type: 'string', 'x-mcp-header': 'Bad Name' },
        e: { type: 'string', 'x-mcp-header': 'Bad\r\nName' },
        f: { type: 'string', 'x-mcp-header': 7 },
      },
    };
    expect(findHeaderAnnotations(schema)).toEqual([{ path: ['a'], name: 'Zone' }]);
    expect(paramHeaders(schema, { a: '1', b: '2', c: '3', d: '4', e: '5', f: '6' })).toEqual({ 'Mcp-Param-Zone': '1' });
  });

  it('skips object and array values, which can never be valid targets', () => {
    const schema = { type: 'object', properties: { v: { 'x-mcp-header': 'V' } } };
    expect(paramHeaders(schema, { v: { a: 1 } })).toEqual({});
    expect(paramHeaders(schema, { v: [1] })).toEqual({});
  });

  it('does not read inherited properties of the arguments', () => {
    const schema = { type: 'object', properties: { toString: { type: 'string', 'x-mcp-header': 'Ts' } } };
    expect(paramHeaders(schema, {})).toEqual({});
  });
});
