import { describe, expect, it } from 'vitest';
import { targetStderr } from '../engine/target-stderr.js';
import { startHint } from '../model/start-hint.js';
import { abortLines } from './abort-lines.js';

describe('a target that could not be audited', () => {
  it('says why on one line, then the hint and the target stderr excerpt', () => {
    const excerpt = targetStderr("boot\nError: Cannot find module '/x.js'\n").targetStderr!;
    const lines = abortLines(
      {
        aborted: {
          reason:
            'the target could not be audited: target exited with code 1 (stderr: boot | Error: Cannot find ' +
            "module '/x.js')",
          targetStderr: excerpt,
        },
      },
      false,
    );
    expect(lines).toEqual([
      'mcp-tools-conformance: the target could not be audited: target exited with code 1',
      '  target stderr: boot',
      "  target stderr: Error: Cannot find module '/x.js'",
    ]);
  });

  it('hints at PATH for a command that does not exist, and says when the audit stopped mid-way', () => {
    expect(startHint("cannot start 'mcp-srv': ENOENT")).toMatch(/'mcp-srv' was not found: is it installed and on PATH/);
    expect(startHint('target exited with code 1')).toBeUndefined();
    expect(
      abortLines({ aborted: { reason: "the target could not be audited: cannot start 'mcp-srv': ENOENT" } }, false)[1],
    ).toMatch(/^ {2}hint: /);
    expect(abortLines({ aborted: { reason: 'target exited with code 9', duringCheck: 'x' } }, true)).toEqual([
      'mcp-tools-conformance: the audit stopped: target exited with code 9',
    ]);
    expect(abortLines({}, true)).toEqual([]);
    expect(targetStderr('')).toEqual({});
  });
});
