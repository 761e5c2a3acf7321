/**
 * The `_meta` key grammar (basic/index § _meta, "Key name format"): an optional prefix of dot-separated labels
 * followed by "/", then a name. Only the MUST parts are judged here: the reverse-DNS advice (SHOULD) and the list of
 * characters a name MAY contain between its ends are not.
 */
export type MetaKeyRule = 'meta.key.prefix' | 'meta.key.labels' | 'meta.key.name';

export interface MetaKeyIssue {
  rule: MetaKeyRule;
  why: string;
}

const LABEL = /^[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
const ALPHANUMERIC = /^[A-Za-z0-9]$/;

/**
 * A name may not contain "/", so everything before the first "/" is the prefix. Splitting at the first rather than
 * the last slash is the reading that flags the fewest keys, since a name's interior characters are only a MAY.
 */
export function splitMetaKey(key: string): { prefix: string | undefined; name: string } {
  const slash = key.indexOf('/');
  return slash < 0 ? { prefix: undefined, name: key } : { prefix: key.slice(0, slash), name: key.slice(slash + 1) };
}

export function metaKeyIssues(key: string): MetaKeyIssue[] {
  const issues: MetaKeyIssue[] = [];
  const { prefix, name } = splitMetaKey(key);
  if (prefix !== undefined) {
    const labels = prefix.split('.');
    if (prefix === '') issues.push({ rule: 'meta.key.prefix', why: 'the prefix before "/" is empty' });
    else if (labels.some((label) => label === ''))
      issues.push({ rule: 'meta.key.prefix', why: `the prefix "${prefix}/" has an empty label` });
    const bad = labels.filter((label) => label !== '' && !LABEL.test(label));
    if (bad.length > 0) {
      issues.push({
        rule: 'meta.key.labels',
        why:
          `prefix label${bad.length > 1 ? 's' : ''} ${bad.map((label) => `"${label}"`).join(', ')} must start ` +
          `with a letter, end with a letter or digit, and contain only letters, digits and hyphens`,
      });
    }
  }
  if (name !== '' && !(ALPHANUMERIC.test(name[0]!) && ALPHANUMERIC.test(name[name.length - 1]!))) {
    issues.push({ rule: 'meta.key.name', why: `the name "${name}" must start and end with a letter or digit` });
  }
  return issues;
}

/**
 * Extension identifiers follow the same grammar, with the prefix mandatory (basic/versioning § Extension Negotiation).
 */
export function extensionIdIssues(id: string): string[] {
  const issues = metaKeyIssues(id).map((issue) => issue.why);
  if (splitMetaKey(id).prefix === undefined) issues.unshift('it has no prefix (a mandatory "vendor.label/" part)');
  return issues;
}
