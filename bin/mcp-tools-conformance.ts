#!/usr/bin/env node
import { installSignalHandlers, main } from '../src/cli/main.js';

installSignalHandlers();
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: Error) => {
    process.stderr.write(`mcp-tools-conformance: internal error: ${error.stack ?? error.message}\n`);
    process.exitCode = 3;
  },
);
