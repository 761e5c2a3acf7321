import { startCanary } from '../../../test/helpers/canary.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { analyzeRefs, validateSchemaDocument } from './index.js';

let canary: Awaited<ReturnType<typeof startCanary>>;
let base = '';
let requests: string[] = [];

beforeAll(async () => {
  canary = await startCanary();
  ({ base, requests } = canary);
});

afterAll(() => canary.close());

it('never contacts a canary server named in $ref, $dynamicRef, $id or $schema', async () => {
  const schemas = [
    'https://json-schema.org/draft/2020-12/schema',
    'https://json-schema.org/draft/2019-09/schema',
    'http://json-schema.org/draft-07/schema#',
    'http://json-schema.org/draft-06/schema#',
  ].map(($schema) => ({
    $schema,
    $id: `${base}/root.json`,
    type: 'object',
    properties: {
      absolute: { $ref: `${base}/absolute.json` },
      relative: { $ref: 'relative.json#/x' },
      dynamic: { $dynamicRef: `${base}/dynamic.json#meta` },
      recursive: { $recursiveRef: `${base}/recursive.json` },
      embedded: { $id: `${base}/embedded/`, $ref: 'sibling.json' },
    },
  }));
  schemas.push({ $schema: `${base}/dialect.json`, $id: `${base}/x.json`, type: 'object', properties: {} });

  const refs = schemas.flatMap((schema) => analyzeRefs(schema));
  const verdicts = schemas.map((schema) => validateSchemaDocument(schema));
  await new Promise((settle) => setTimeout(settle, 100));

  expect(requests).toEqual([]);
  expect(refs.length).toBe(20);
  expect(refs.every((ref) => ref.kind === 'network' && !ref.resolved)).toBe(true);
  expect(verdicts.slice(0, 4).every((verdict) => verdict.checked)).toBe(true);
  expect(verdicts[4]).toMatchObject({ checked: false, skippedBecause: `unknown dialect ${base}/dialect.json` });

  // The canary itself works: a real request is counted.
  await fetch(`${base}/probe.json`).then((response) => response.text());
  expect(requests).toEqual(['/probe.json']);
});
