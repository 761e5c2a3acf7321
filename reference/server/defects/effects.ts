import { appendFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { defineDefects } from './define.js';
import { effectFile } from './effect-files.js';

/** Defects that the checks of suites/effects/ catch, each breaking one of them. */
export const EFFECTS_DEFECTS = defineDefects([
  {
    name: 'read-only-writes',
    breaks: 'tools.annotations.read-only-honest',
    description: 'search_docs (readOnlyHint: true) appends each query to $TMPDIR/mtc-reference-search-history.log',
    transports: ['stdio'],
    auditArgs: ['--sandbox'],
    at: {
      toolRan: (name, args) => {
        if (name === 'search_docs')
          appendFileSync(effectFile('searchHistory'), `${new Date().toISOString()} ${JSON.stringify(args.query)}\n`);
      },
    },
  },
  {
    name: 'non-destructive-deletes',
    breaks: 'tools.annotations.destructive-honest',
    description:
      'the server writes $TMPDIR/mtc-reference-notes.json as it starts (unless it is there), ' +
      'and create_note (destructiveHint: false) deletes it',
    transports: ['stdio'],
    auditArgs: ['--sandbox'],
    at: {
      serverStarts: () => {
        // Only the first process of a shared $TMPDIR writes it.
        if (!existsSync(effectFile('notes'))) writeFileSync(effectFile('notes'), '[]\n');
      },
      toolRan: (name) => {
        if (name === 'create_note') rmSync(effectFile('notes'), { force: true });
      },
    },
  },
  {
    name: 'idempotent-appends',
    breaks: 'tools.annotations.idempotent-honest',
    description:
      'delete_note (idempotentHint: true) appends each call to $TMPDIR/mtc-reference-deletions.log, ' +
      'and answers a note that is not there as deleted already',
    transports: ['stdio'],
    auditArgs: ['--sandbox'],
    at: {
      toolRan: (name, args) => {
        if (name === 'delete_note')
          appendFileSync(effectFile('deletions'), `${new Date().toISOString()} delete ${JSON.stringify(args.id)}\n`);
      },
      missingNote: (id) => `note "${id}" is deleted (it was not there)`,
    },
  },
]);
