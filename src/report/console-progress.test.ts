import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { palette } from './color.js';
import { createConsoleReporter } from './console.js';
import { createProgress, HEARTBEAT_MS, longestWait } from './console-progress.js';
import { RUN_REPORT } from './run-report.fixture.js';

function fakeTime() {
  let now = 0;
  const ticks: (() => void)[] = [];
  return {
    now: () => now,
    every: (_ms: number, tick: () => void) => {
      ticks.push(tick);
      return { stop: () => ticks.splice(0) };
    },
    advance(ms: number) {
      now += ms;
      ticks.forEach((tick) => tick());
    },
  };
}

function sink() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { stream, text: () => text };
}

describe('progress without a terminal (CI)', () => {
  it('writes a heartbeat after 10 s without output while a check waits, naming it and the request waited on', () => {
    const time = fakeTime();
    const out = sink();
    const progress = createProgress({
      stream: out.stream,
      interactive: false,
      paint: palette(false),
      waitingOn: () => 'tools/call get_time for 12 s',
      ...time,
    });
    progress.started('tools.err.execution-errors.property');
    time.advance(HEARTBEAT_MS - 1);
    expect(out.text()).toBe('');
    time.advance(1);
    expect(out.text()).toBe(
      '… running tools.err.execution-errors.property (waiting on tools/call get_time for 12 s)\n',
    );
    time.advance(HEARTBEAT_MS / 2);
    expect(out.text().split('\n')).toHaveLength(2);
    progress.finished('tools.err.execution-errors.property');
    time.advance(HEARTBEAT_MS * 3);
    expect(out.text().split('\n')).toHaveLength(2);
  });

  it('stays quiet while results keep coming', () => {
    const time = fakeTime();
    const out = sink();
    const progress = createProgress({ stream: out.stream, interactive: false, paint: palette(false), ...time });
    progress.started('a');
    for (let i = 0; i < 10; i += 1) {
      time.advance(HEARTBEAT_MS / 2);
      progress.afterWrite();
    }
    expect(out.text()).toBe('');
  });
});

describe('progress on a terminal', () => {
  it('shows one status line, cleared before result lines and at the end; results print unchanged in between', async () => {
    const time = fakeTime();
    const out = sink();
    const reporter = createConsoleReporter({
      stream: out.stream,
      color: false,
      progress: { interactive: true, waitingOn: () => 'tools/list for 1 s', ...time },
    });
    reporter.onStart?.(RUN_REPORT.checks[0]!.id);
    reporter.onStart?.('b.check');
    expect(out.text()).toBe(
      `\r\u001b[K… running ${RUN_REPORT.checks[0]!.id} (waiting on tools/list for 1 s)\r\u001b[K… running ` +
        `${RUN_REPORT.checks[0]!.id}, b.check (waiting on tools/list for 1 s)`,
    );
    reporter.onResult?.(RUN_REPORT.checks[0]!);
    const afterResult = out.text();
    expect(afterResult).toContain(`\r\u001b[Klifecycle\nPASS MUST        ${RUN_REPORT.checks[0]!.id}`);
    expect(afterResult.endsWith('\r\u001b[K… running b.check (waiting on tools/list for 1 s)')).toBe(true);
    await reporter.finish(RUN_REPORT, 'ignored');
    const final = out.text().slice(afterResult.length);
    expect(final.startsWith('\r\u001b[K')).toBe(true);
    expect(final).not.toContain('… running');
  });
});

describe('longestWait', () => {
  it('names the oldest request in flight, with its tool and seconds', () => {
    expect(
      longestWait(
        [
          { method: 'tools/list', since: 5_000 },
          { method: 'tools/call', tool: 'get_time', since: 1_000 },
        ],
        13_500,
      ),
    ).toBe('tools/call get_time for 12 s');
    expect(longestWait([], 1)).toBeUndefined();
  });
});
