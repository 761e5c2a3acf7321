#!/usr/bin/env node
import { packageVersion } from '../src/cli/version.js';
import { EXIT } from '../src/model/exit-codes.js';
import {
  runAuditWorker,
  AUDIT_WORKER_COMMAND,
  AUDIT_RESULTS_FD,
  AUDIT_WORKER_REUSE_FLAG,
} from '../src/fleet/run/audit-worker-protocol.js';

const argv = process.argv.slice(2);
if (argv.length === 1 && argv[0] === '--version') {
  // Answered before anything heavy loads: CI scripts call this a lot.
  process.stdout.write(`${packageVersion()}\n`);
} else if (argv[0] === 'scripted-server') {
  // Client mode's scripted server on stdio, started by the client under test: nothing else loads.
  const { scriptedServerMain } = await import('../src/client-mode/stdio-main.js');
  scriptedServerMain(argv.slice(1));
} else {
  const { installSignalHandlers, main } = await import('../src/cli/main.js');
  installSignalHandlers();
  try {
    if (argv[0] !== AUDIT_WORKER_COMMAND) {
      process.exitCode = await main(argv);
    } else if (process.stdin.isTTY) {
      process.stderr.write(
        `mcp-tools-conformance: ${AUDIT_WORKER_COMMAND} is started by \`fleet\` only (see --help)\n`,
      );
      process.exitCode = EXIT.usage;
    } else {
      // A fleet's audit process: everything an audit loads is loaded before its arguments arrive; none means it was not
      // needed.
      await import('../src/cli/commands.js');
      const { resetBetweenAudits } = await import('../src/engine/process-leftovers.js');
      const reuse = argv[1] === AUDIT_WORKER_REUSE_FLAG ? { resultsFd: AUDIT_RESULTS_FD } : {};
      process.exitCode = await runAuditWorker(process.stdin, main, { ...reuse, between: resetBetweenAudits });
    }
  } catch (error) {
    process.stderr.write(`mcp-tools-conformance: internal error: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 3;
  }
}
