import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../model/check.js';
import type { RunReport } from '../model/report.js';
import { deeperWith, depthOf } from './depth.js';

const result = (id: string, skippedFor?: 'no-callable-tool'): CheckResult =>
  ({ id, status: skippedFor ? 'skip' : 'pass', ...(skippedFor ? { skippedFor } : {}) }) as CheckResult;

function report(stats: Partial<RunReport['stats']>, checks: CheckResult[] = []): RunReport {
  return { stats: { requests: 1, toolsCalled: {}, ...stats }, checks } as RunReport;
}

describe('depthOf', () => {
  it('counts the listed tools called (not probes of unlisted names), the checks skipped for want of a callable tool, once each', () => {
    const depth = depthOf(
      report(
        { toolsListed: ['a', 'b', 'c'], toolsCalled: { a: 3, mtc_no_such_tool: 2 }, toolsNotAllowed: ['b', 'c'] },
        [
          result('x', 'no-callable-tool'),
          result('x', 'no-callable-tool'),
          result('y', 'no-callable-tool'),
          result('z'),
        ],
      ),
    );
    expect(depth).toEqual({
      toolsListed: 3,
      toolsCalled: 1,
      skippedForNoCallableTool: 2,
      deeperWith: '--allow-tools b,c',
      notReadOnly: ['b', 'c'],
    });
  });

  it('offers --sandbox first for a stdio server on Linux, and the allow flags with the tools they risk elsewhere', () => {
    const stdio = {
      ...report({ toolsListed: ['a', 'b'], toolsCalled: { a: 1 }, toolsNotAllowed: ['b'] }),
      target: { transport: 'stdio' },
    } as RunReport;
    expect(depthOf(stdio, 'linux')).toEqual({
      toolsListed: 2,
      toolsCalled: 1,
      skippedForNoCallableTool: 0,
      deeperWith: '--sandbox',
    });
    expect(depthOf(stdio, 'darwin')).toMatchObject({ deeperWith: '--allow-tools b', notReadOnly: ['b'] });
    const http = { ...stdio, target: { transport: 'http' } } as RunReport;
    expect(depthOf(http, 'linux')).toMatchObject({ deeperWith: '--allow-tools b', notReadOnly: ['b'] });
  });

  it('says a sandboxed audit was sandboxed, and offers nothing more once every tool was callable', () => {
    const sandboxed = {
      ...report({ toolsListed: ['a', 'b'], toolsCalled: { a: 1, b: 2 }, toolsNotAllowed: [] }),
      target: { transport: 'stdio' },
      sandbox: {},
    } as RunReport;
    expect(depthOf(sandboxed, 'linux')).toEqual({
      toolsListed: 2,
      toolsCalled: 2,
      skippedForNoCallableTool: 0,
      sandboxed: true,
    });
  });

  it('names no flag when every refused tool was called anyway (the --list-changed-trigger) or none was refused', () => {
    expect(
      depthOf(report({ toolsListed: ['a', 't'], toolsCalled: { a: 1, t: 2 }, toolsNotAllowed: ['t'] })).deeperWith,
    ).toBeUndefined();
    expect(depthOf(report({ toolsListed: ['a'], toolsCalled: { a: 1 }, toolsNotAllowed: [] }))).toEqual({
      toolsListed: 1,
      toolsCalled: 1,
      skippedForNoCallableTool: 0,
    });
  });

  it('counts no tools for a report without a listing', () => {
    expect(depthOf(report({ toolsCalled: { a: 1 } }))).toEqual({
      toolsListed: 0,
      toolsCalled: 0,
      skippedForNoCallableTool: 0,
    });
  });
});

describe('deeperWith', () => {
  it('names the tools, or --allow-all-tools when the list is long or a name cannot travel in the flag', () => {
    expect(deeperWith(['create_note', 'files.write'])).toBe('--allow-tools create_note,files.write');
    expect(deeperWith(Array.from({ length: 30 }, (_, i) => `tool_number_${i}`))).toBe('--allow-all-tools');
    expect(deeperWith(['write file'])).toBe('--allow-all-tools');
    expect(deeperWith(['a,b'])).toBe('--allow-all-tools');
    expect(deeperWith([])).toBeUndefined();
  });
});
