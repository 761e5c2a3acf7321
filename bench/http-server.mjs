import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REFERENCE, ROOT } from './measure.mjs';

/**
 * The SDK v2 fixture server of the tests (@modelcontextprotocol/server 2.4.0, a dev dependency): it speaks both wires.
 */
const SDK_SERVER = join(ROOT, 'test/fixtures/sdk-v2-http-server.mjs');
const SDK_PACKAGE = join(ROOT, 'node_modules/@modelcontextprotocol/server/package.json');

/** Starts the reference server over Streamable HTTP on 127.0.0.1 (a free port); resolves once it prints its URL. */
export function startHttpReference(args = []) {
  return startHttpServer('the reference server', [REFERENCE, '--http', '--port', '0', ...args]);
}

/** Why the SDK v2 fixture server cannot be started here, or undefined when it can. */
export function sdkServerMissing() {
  if (!existsSync(SDK_SERVER)) return `${SDK_SERVER} is missing`;
  if (!existsSync(SDK_PACKAGE))
    return '@modelcontextprotocol/server is not installed (npm ci installs the dev dependencies)';
  return undefined;
}

/** Starts the SDK v2 fixture server over Streamable HTTP on 127.0.0.1 (a free port). */
export function startHttpSdkServer() {
  return startHttpServer('the SDK v2 fixture server', [SDK_SERVER, '0']);
}

function startHttpServer(name, argv) {
  const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start: ${stderr}`));
    }, 30_000);
    child.on('exit', (code) => reject(new Error(`${name} exited (${code}): ${stderr}`)));
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: match[1],
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.removeAllListeners('exit');
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
