import { spawn } from 'node:child_process';
import { REFERENCE } from './measure.mjs';

/** Starts the reference server over Streamable HTTP on 127.0.0.1 (a free port); resolves once it prints its URL. */
export function startHttpReference(args = []) {
  const child = spawn(process.execPath, [REFERENCE, '--http', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the reference server did not start: ${stderr}`));
    }, 30_000);
    child.on('exit', (code) => reject(new Error(`the reference server exited (${code}): ${stderr}`)));
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
