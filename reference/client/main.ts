#!/usr/bin/env node
import { parseCliArgs, defectListing, USAGE } from './cli-args.js';
import { runClient } from './client.js';
import { ENV_SERVER_COMMAND, ENV_URL } from './constants.js';
import { activeDefects, DEFECTS, type Defect } from './defects/index.js';
import type { TransportRules } from './defects/seams/session.js';
import { Fatal } from './fatal.js';
import { HttpTransport } from './http-transport.js';
import { runInitializeClient } from './initialize-client.js';
import { warn } from './log.js';
import { StdioTransport } from './stdio-transport.js';
import type { Transport } from './transport.js';

async function main(): Promise<number> {
  const args = parseCliArgs(process.argv.slice(2));
  switch (args.kind) {
    case 'help':
      process.stdout.write(USAGE);
      return 0;
    case 'list-defects':
      process.stdout.write(defectListing());
      return 0;
    case 'usage-error':
      process.stderr.write(`reference-client: ${args.message}\n`);
      return 2;
  }
  const url = process.env[ENV_URL] || args.positional.at(-1);
  const command = process.env[ENV_SERVER_COMMAND];
  const defects = activeDefects(args.defects);
  if (args.protocolVersion && (url || command)) {
    try {
      await runInitializeClient(url ? { url } : { command: command! }, args.protocolVersion, defects);
      return 0;
    } catch (error) {
      process.stderr.write(`reference-client: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
  }
  const rules: TransportRules = { refusesSse: false, resumesCutStreams: false, stderrIsError: false };
  defects.at.transportRules(rules);
  let transport: Transport;
  if (url) {
    transport = new HttpTransport(url, rules);
  } else if (command) {
    transport = new StdioTransport(command, rules.stderrIsError);
  } else {
    process.stderr.write(`reference-client: set ${ENV_URL} or ${ENV_SERVER_COMMAND} (see --help)\n`);
    return 2;
  }
  for (const defect of args.defects) {
    const { only }: Defect = DEFECTS[defect];
    if (only !== undefined && only !== transport.kind) {
      warn(`defect ${defect} has no effect over ${transport.kind}`);
    }
  }
  try {
    await runClient(transport, defects);
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`reference-client: ${error instanceof Fatal ? message : `unexpected failure: ${message}`}\n`);
    return 1;
  }
}

const code = await main();
// Exit explicitly (idle keep-alive sockets would hold the process), once stdout has been handed over.
process.stdout.write('', () => process.exit(code));
