import { describe, expect, it } from 'vitest';
import type { RunReport } from '../model/report.js';
import { RUN_REPORT } from './run-report.fixture.js';
import { effectsRows, sandboxLine } from './effects-table.js';
import { renderMarkdown } from './markdown.js';
import { summaryLines } from './console-summary.js';
import { palette } from './color.js';

const PLAIN = palette(false);

const SANDBOXED: RunReport = {
  ...RUN_REPORT,
  stats: { ...RUN_REPORT.stats, toolsListed: ['read_graph', 'create_entities'] },
  sandbox: {
    kind: 'overlay',
    network: false,
    overlays: ['/home/u/data'],
    outsideCalls: [{ root: '$HOME', path: '.cache/x', kind: 'created', type: 'file', size: 3 }],
  },
  effects: {
    create_entities: {
      calls: 3,
      callsWithChanges: 2,
      changes: [
        { root: '/home/u/data', path: 'memory.jsonl', kind: 'created', type: 'file', size: 120, call: 1 },
        { root: '/home/u/data', path: 'memory.jsonl', kind: 'modified', type: 'file', size: 2048, call: 2 },
        { root: '$TMPDIR', path: 'lock', kind: 'deleted', type: 'file', size: 0, call: 2, late: true },
      ],
    },
    read_graph: { calls: 4, callsWithChanges: 0, changes: [] },
    mtc_no_such_tool: { calls: 2, callsWithChanges: 0, changes: [] },
  },
};

describe('what each tool changed', () => {
  it('has a row per tool in listing order, naming kind, place and size, never contents', () => {
    expect(effectsRows(SANDBOXED)).toEqual([
      { tool: 'read_graph', calls: 4, callsWithChanges: 0, changes: 'nothing' },
      {
        tool: 'create_entities',
        calls: 3,
        callsWithChanges: 2,
        changes:
          'created /home/u/data/memory.jsonl (120 B); modified /home/u/data/memory.jsonl (2.0 kB); deleted ' +
          '$TMPDIR/lock (0 B) (late)',
      },
    ]);
    expect(sandboxLine(SANDBOXED.sandbox!)).toBe(
      'writes thrown away after the audit (copy-on-write over /home/u/data, fresh HOME and TMPDIR); no ' +
        'network; 1 change(s) made outside any call',
    );
    expect(sandboxLine({ ...SANDBOXED.sandbox!, network: true, outsideCalls: [] })).toContain(
      'network allowed (--sandbox-network)',
    );
  });

  it('shows on the console and in Markdown, and not for an audit without a sandbox', () => {
    const lines = summaryLines(SANDBOXED, PLAIN, []);
    expect(lines).toContain('What each tool changed:');
    expect(lines).toContain('  read_graph: 0 of 4 calls changed files: nothing');
    expect(lines.some((line) => line.startsWith('Sandbox: writes thrown away'))).toBe(true);
    const markdown = renderMarkdown(SANDBOXED);
    expect(markdown).toContain('| 2 of 3 calls changed files | created /home/u/data/memory.jsonl \\(120 B\\);');
    expect(markdown).toContain('| Tool | Calls | What it changed |');
    expect(
      summaryLines(RUN_REPORT, PLAIN, []).some((line) => line.startsWith('Sandbox:') || line.startsWith('What each')),
    ).toBe(false);
    expect(renderMarkdown(RUN_REPORT)).not.toContain('What it changed');
  });
});
