// npm test's first step: the import boundaries, eslint, prettier and tsc, side by side (each is single-threaded, and
// together they take a fresh clone about half the wall time they take one after another). Prints each one's output
// whole, in this order, and fails when any of them does.
import { spawn } from 'node:child_process';

const CHECKS = [
  ['boundaries', ['run', 'check-boundaries', '--silent']],
  ['lint', ['run', 'lint', '--silent']],
  ['format', ['run', 'format:check', '--silent']],
  ['typecheck', ['run', 'typecheck', '--silent']],
];

const runs = CHECKS.map(
  ([name, args]) =>
    new Promise((resolve) => {
      const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      child.on('error', (error) => resolve({ name, code: 1, output: String(error) }));
      child.on('close', (code) => resolve({ name, code: code ?? 1, output }));
    }),
);

let failed = 0;
for (const { name, code, output } of await Promise.all(runs)) {
  if (output.trim() !== '') process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
  if (code !== 0) {
    failed += 1;
    console.error(`static checks: ${name} failed (exit ${code})`);
  }
}
process.exit(failed === 0 ? 0 : 1);
