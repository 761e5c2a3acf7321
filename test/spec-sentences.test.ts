import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toResult } from '../src/runner/runner.js';
import { type CheckDefinition } from '../src/runner/types.js';
import { governingSentence, revisionsOf } from '../src/model/check.js';
import { REVISIONS } from '../src/core/revision.js';
import { ALL_CHECKS as SERVER_CHECKS } from '../suites/index.js';
import { CLIENT_CHECKS } from '../suites/client/index.js';

/** Server and client checks alike: every verdict quotes its sentence. */
const ALL_CHECKS = [...SERVER_CHECKS, ...CLIENT_CHECKS];
import { normaliseText, sentenceProblem, slug, specDir } from './helpers/spec-text.js';

const HAVE_SPEC = REVISIONS.every((wire) => existsSync(specDir(wire)));

describe.skipIf(!HAVE_SPEC)('every verdict stands on a sentence of the wire in use', () => {
  it('each check quotes at least one sentence, and every revision has a folder of pages', () => {
    expect(ALL_CHECKS.filter((check) => revisionsOf(check).length === 0).map((check) => check.id)).toEqual([]);
    expect(REVISIONS.filter((wire) => !existsSync(specDir(wire)))).toEqual([]);
  });

  it('each quoted sentence occurs in that revision, under its anchor, and carries the keyword it is labelled with', () => {
    const wrong = ALL_CHECKS.flatMap((check) =>
      REVISIONS.flatMap((wire) =>
        (check.sentences[wire] ?? []).flatMap((sentence) => {
          const problem = sentenceProblem(wire, sentence);
          return problem ? [`${check.id} (${wire}, ${sentence.ref}): ${problem}`] : [];
        }),
      ),
    );
    expect(wrong).toEqual([]);
  });

  it('quotes read as plain text in reports: no markdown emphasis', () => {
    const marked = ALL_CHECKS.flatMap((check) =>
      REVISIONS.flatMap((wire) =>
        (check.sentences[wire] ?? []).filter((s) => s.text.includes('**')).map(() => `${check.id} (${wire})`),
      ),
    );
    expect(marked).toEqual([]);
  });

  it("a check's keyword is the keyword of the sentence its verdict rests on, on its first wire", () => {
    const wrong = ALL_CHECKS.flatMap((check) => {
      const first = revisionsOf(check)[0];
      const governing = first ? governingSentence(check, first) : undefined;
      return governing && governing.keyword !== check.keyword
        ? [`${check.id}: declared ${check.keyword}, its ${first} sentence is ${governing.keyword}`]
        : [];
    });
    expect(wrong).toEqual([]);
  });
});

describe('the sentence matcher', () => {
  it('normalises emphasis, backticks, links and whitespace, and slugs headings', () => {
    expect(normaliseText('Servers **MUST**\n  declare the [`tools`](/x#y) capability')).toBe(
      'Servers MUST declare the tools capability',
    );
    expect(slug('Error Handling')).toBe('error-handling');
    expect(slug('`_meta` keys')).toBe('_meta-keys');
  });

  it.skipIf(!HAVE_SPEC)(
    'rejects a sentence the page does not hold, a wrong anchor, and a keyword the text lacks',
    () => {
      const ok = {
        ref: 'server/tools#capabilities',
        text: 'Servers that support tools MUST declare the tools capability',
        keyword: 'MUST',
      } as const;
      expect(sentenceProblem('2026-07-28', ok)).toBeUndefined();
      expect(
        sentenceProblem('2026-07-28', { ...ok, text: 'Servers MUST answer every unknown tool with -32602' }),
      ).toMatch(/not found/);
      expect(sentenceProblem('2026-07-28', { ...ok, ref: 'server/tools#no-such-heading' })).toMatch(/no heading/);
      expect(sentenceProblem('2026-07-28', { ...ok, keyword: 'SHOULD' })).toMatch(/labelled SHOULD/);
      expect(
        sentenceProblem('2026-07-28', {
          ref: 'server/tools#error-handling',
          text: 'They are returned as standard JSON-RPC errors',
          keyword: 'MUST',
        }),
      ).toMatch(/labelled MUST/);
      expect(
        sentenceProblem('2026-07-28', {
          ref: 'server/tools#error-handling',
          text: 'They are returned as standard JSON-RPC errors',
          keyword: 'descriptive',
        }),
      ).toBeUndefined();
      expect(
        sentenceProblem('2026-07-28', {
          ref: 'schema.json#/$defs/Tool/required',
          text: '["inputSchema","name"]',
          keyword: 'schema.json structural rule',
        }),
      ).toBeUndefined();
      expect(
        sentenceProblem('2026-07-28', {
          ref: 'schema.json#/$defs/Tool/required',
          text: '["name"]',
          keyword: 'schema.json structural rule',
        }),
      ).toMatch(/not \["name"\]/);
    },
  );

  it.skipIf(!HAVE_SPEC)(
    'accepts a capitalised keyword in a schema.json description only with that keyword, and only if the ' +
      'description holds it',
    () => {
      const ref = 'schema.json#/$defs/CallToolResult/properties/isError/description';
      const text = 'Any errors that originate from the tool SHOULD be reported inside the result object';
      expect(sentenceProblem('2025-11-25', { ref, text, keyword: 'SHOULD' })).toBeUndefined();
      expect(sentenceProblem('2025-11-25', { ref, text, keyword: 'MUST' })).toMatch(/labelled MUST/);
      expect(
        sentenceProblem('2025-11-25', {
          ref,
          text: 'Any errors SHOULD be reported as an MCP error response',
          keyword: 'SHOULD',
        }),
      ).toMatch(/not found/);
      expect(
        sentenceProblem('2025-11-25', { ref: 'schema.json#/$defs/Tool/required', text, keyword: 'SHOULD' }),
      ).toMatch(/cannot point into schema.json/);
    },
  );
});

describe('a verdict follows the sentence of the wire in use', () => {
  const check = {
    id: 'x.y',
    keyword: 'MUST',
    title: 't',
    specRef: 'server/tools#error-handling',
    area: 'a',
    sentences: {
      '2026-07-28': [
        {
          ref: 'server/tools#error-handling',
          text: 'They are returned as standard JSON-RPC errors',
          keyword: 'descriptive',
        },
        {
          ref: 'server/tools#capabilities',
          text: 'Servers that support tools MUST declare the tools capability',
          keyword: 'MUST',
        },
      ],
      '2025-11-25': [{ ref: 'server/tools#error-handling', text: 'described only', keyword: 'descriptive' }],
    },
    run: () => [],
  } as const satisfies CheckDefinition;

  it('fails on a wire whose sentences include a MUST, and quotes that sentence with its page in that revision', () => {
    const result = toResult(check, { status: 'fail', message: 'm' }, 0, '2026-07-28');
    expect(result).toMatchObject({
      status: 'fail',
      keyword: 'MUST',
      keywordText: 'MUST',
      specRef: 'server/tools#capabilities',
      quote: 'Servers that support tools MUST declare the tools capability',
    });
    expect(result.specUrl).toBe('https://modelcontextprotocol.io/specification/2026-07-28/server/tools#capabilities');
  });

  it('an outcome resting on a weaker sentence of its check warns and quotes that sentence; a sentence the check lacks is ignored', () => {
    const weaker = check.sentences['2026-07-28'][0];
    const advisory = toResult(check, { status: 'fail', message: 'm', sentence: weaker }, 0, '2026-07-28');
    expect(advisory).toMatchObject({
      status: 'warn',
      keyword: 'SHOULD',
      keywordText: 'descriptive',
      quote: weaker.text,
      specRef: weaker.ref,
    });
    const stranger = {
      ref: 'server/tools#tool',
      text: 'not a sentence of this check',
      keyword: 'descriptive',
    } as const;
    expect(toResult(check, { status: 'fail', message: 'm', sentence: stranger }, 0, '2026-07-28')).toMatchObject({
      status: 'fail',
      keyword: 'MUST',
    });
  });

  it('only warns, labelled descriptive, on a wire that merely describes it, and links into that revision', () => {
    const result = toResult(check, { status: 'fail', message: 'm' }, 0, '2025-11-25');
    expect(result).toMatchObject({
      status: 'warn',
      keyword: 'SHOULD',
      keywordText: 'descriptive',
      quote: 'described only',
    });
    expect(result.specUrl).toBe('https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling');
  });
});
