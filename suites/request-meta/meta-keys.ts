import { defineCheck } from '../kit/define-check.js';
import {
  type CheckContext,
  type CheckDefinition,
  extensionIdIssues,
  isObject,
  type MetaKeyIssue,
  metaKeyIssues,
  type MetaKeyRule,
  type Outcome,
  type SpecSentences,
} from '../kit/index.js';
import { serverMetaSites, type MetaSite } from '../kit/meta-objects.js';
import { fail, note, pass, skip } from '../kit/outcome.js';
import { fromRevision } from '../kit/same-sentences.js';

const SPEC = 'basic/index#_meta';
const MAX_OUTCOMES = 10;

interface KeyFinding {
  site: MetaSite;
  key: string;
  issues: MetaKeyIssue[];
}

/**
 * Every distinct key of every `_meta` object received, judged against the whole grammar once for the three checks
 * (recomputed only if something arrived in between).
 */
function keyFindings(ctx: CheckContext): Promise<{ sites: MetaSite[]; keys: KeyFinding[] }> {
  const exchanges = ctx.exchanges();
  const strays = ctx.strays();
  return ctx.memo(`meta-key-findings\u0000${exchanges.length}\u0000${strays.length}`, async () => {
    const sites = serverMetaSites(exchanges, strays);
    const seen = new Set<string>();
    const keys: KeyFinding[] = [];
    for (const site of sites) {
      for (const key of Object.keys(site.meta)) {
        if (seen.has(`${site.where}\n${key}`)) continue;
        seen.add(`${site.where}\n${key}`);
        keys.push({ site, key, issues: metaKeyIssues(key) });
      }
    }
    return { sites, keys };
  });
}

/** A sentence of the key grammar (basic/index, `_meta` section), the same since it arrived with 2025-06-18. */
function grammarSentence(text: string): SpecSentences {
  return fromRevision('2025-06-18', { ref: 'basic/index#_meta', text, keyword: 'MUST' });
}

/**
 * One check per MUST of the key grammar, judged on every `_meta` object the audit received (no requests of its own).
 */
function metaKeyCheck(rule: MetaKeyRule, title: string, expected: string, sentences: SpecSentences): CheckDefinition {
  return defineCheck({
    id: rule,
    title,
    specRef: SPEC,
    area: 'meta-keys',
    sentences,
    phase: 'final',
    async run(ctx): Promise<Outcome[]> {
      await ctx.tools();
      const { sites, keys } = await keyFindings(ctx);
      if (sites.length === 0) return [skip('the server sent no _meta object')];
      const offending = new Map<string, { site: MetaSite; problems: string[] }>();
      for (const { site, key, issues } of keys) {
        for (const issue of issues.filter((i) => i.rule === rule)) {
          const entry = offending.get(site.where) ?? { site, problems: [] };
          entry.problems.push(`${JSON.stringify(key)}: ${issue.why}`);
          offending.set(site.where, entry);
        }
      }
      if (offending.size === 0)
        return [
          pass(
            `all ${keys.length} _meta keys found in ${new Set(sites.map((s) => s.where)).size} places follow the rule`,
          ),
        ];
      return [...offending.values()].slice(0, MAX_OUTCOMES).map(({ site, problems }) => ({
        ...fail(`${site.where}: _meta key ${problems.join('; ')}`, expected, [
          site.evidence,
          note(`_meta at ${site.where}`, site.meta),
        ]),
        ...(site.tool === undefined ? {} : { tool: site.tool }),
      }));
    },
  });
}

export const META_KEY_CHECKS = [
  metaKeyCheck(
    'meta.key.prefix',
    'Every _meta key prefix is a series of dot-separated labels followed by "/"',
    'a prefix of one or more non-empty labels separated by dots, then "/" (e.g. "com.example/")',
    grammarSentence('If specified, MUST be a series of labels separated by dots (.), followed by a slash (/).'),
  ),
  metaKeyCheck(
    'meta.key.labels',
    'Every label of a _meta key prefix starts with a letter and ends with a letter or digit, with only ' +
      'letters, digits and hyphens',
    'labels matching ^[A-Za-z]([A-Za-z0-9-]*[A-Za-z0-9])?$',
    grammarSentence(
      'Labels MUST start with a letter and end with a letter or digit; interior characters can be letters, ' +
        'digits, or hyphens (-).',
    ),
  ),
  metaKeyCheck(
    'meta.key.name',
    'Every non-empty _meta key name starts and ends with a letter or digit',
    'a name that is empty or starts and ends with [A-Za-z0-9]',
    grammarSentence('Unless empty, MUST begin and end with an alphanumeric character ([a-z0-9A-Z]).'),
  ),
];

export const extensionIds: CheckDefinition = defineCheck({
  id: 'version.ext.id-format',
  title: 'Extension identifiers in capabilities.extensions have a prefix and follow the _meta key grammar',
  area: 'capabilities',
  // No initialize revision has capabilities.extensions: the field and this rule arrive with 2026-07-28.
  sentences: {
    '2026-07-28': [
      {
        ref: 'basic/versioning#extension-negotiation',
        text: 'Extension identifiers MUST follow the _meta key naming rules, with a mandatory prefix.',
        keyword: 'MUST',
      },
    ],
  },
  async run(ctx) {
    const { capabilities, exchange } = await ctx.capabilities();
    const extensions = capabilities?.extensions;
    if (extensions === undefined)
      return [skip('the server advertises no extensions (capabilities.extensions is absent)')];
    if (!isObject(extensions))
      return [skip('capabilities.extensions is not an object (a schema problem, reported by schema.result.valid)')];
    const ids = Object.keys(extensions);
    const bad = ids.map((id) => ({ id, issues: extensionIdIssues(id) })).filter((e) => e.issues.length > 0);
    if (bad.length === 0)
      return [
        pass(
          ids.length === 0
            ? 'capabilities.extensions is empty'
            : `extension identifiers ${ids.map((id) => JSON.stringify(id)).join(', ')} are well-formed`,
          [exchange],
        ),
      ];
    return [
      fail(
        bad.map((b) => `${JSON.stringify(b.id)}: ${b.issues.join('; ')}`).join(' | '),
        'identifiers like "io.modelcontextprotocol/tasks" or "com.example/feature": a prefix of dot-separated ' +
          'labels, "/", then a name',
        [exchange],
      ),
    ];
  },
});
