import type { HostProfile } from '../types.js';

/**
 * Cursor: closed source, and its own documentation (cursor.com/docs, cursor.com/help) states none of these limits as
 * read on 2026-12-07. The limits people quote for it come from blogs and tutorials only, so no rule is kept: a tool is
 * `works` here only in the sense that no primary source says otherwise.
 */
export const CURSOR: HostProfile = {
  host: 'cursor',
  label: 'Cursor (no limit stated in its documentation)',
  rules: [],
  notSourced: [
    'a maximum of 40 tools over all servers (third-party tutorials and blogs only)',
    'server name + tool name at most 60 characters (third-party tutorials only)',
    'tool name pattern, schema subset, description length',
  ],
};
