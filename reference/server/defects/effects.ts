import { defineDefects } from './define.js';

/** Defects that the checks of suites/effects/ catch, each breaking one of them. */
export const EFFECTS_DEFECTS = defineDefects([
  {
    name: 'read-only-writes',
    breaks: 'tools.annotations.read-only-honest',
    description: 'search_docs (readOnlyHint: true) appends each query to $TMPDIR/mtc-reference-search-history.log',
    transports: ['stdio'],
    auditArgs: ['--sandbox'],
  },
  {
    name: 'non-destructive-deletes',
    breaks: 'tools.annotations.destructive-honest',
    description:
      'the server writes $TMPDIR/mtc-reference-notes.json as it starts (unless it is there), ' +
      'and create_note (destructiveHint: false) deletes it',
    transports: ['stdio'],
    auditArgs: ['--sandbox'],
  },
  {
    name: 'idempotent-appends',
    breaks: 'tools.annotations.idempotent-honest',
    description:
      'delete_note (idempotentHint: true) appends each call to $TMPDIR/mtc-reference-deletions.log, ' +
      'and answers a note that is not there as deleted already',
    transports: ['stdio'],
    auditArgs: ['--sandbox'],
  },
]);
