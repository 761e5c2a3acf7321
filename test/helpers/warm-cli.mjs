// A CLI process kept warm for test/helpers/cli.ts: it loads the CLI's `main` once, then runs one command line at a
// time, each with its own environment, and hands back the exit code and what it wrote to stdout and stderr. It
// exits when the test process that forked it goes away.
import { pathToFileURL } from 'node:url';

const { main } = await import(pathToFileURL(process.argv[2]).href);

const streams = { stdout: process.stdout, stderr: process.stderr };
const originalWrite = { stdout: process.stdout.write, stderr: process.stderr.write };
let captured = null;

for (const [name, stream] of Object.entries(streams)) {
  stream.write = function write(chunk, encoding, callback) {
    if (captured === null) return originalWrite[name].call(stream, chunk, encoding, callback);
    captured[name] +=
      typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString(typeof encoding === 'string' ? encoding : 'utf8');
    const done = typeof encoding === 'function' ? encoding : callback;
    if (done) process.nextTick(done);
    return true;
  };
}

// As the CLI's own handler does: an error escaping the run is an internal error, exit code 3.
process.on('uncaughtException', (error) => {
  process.send?.(
    {
      code: 3,
      stdout: captured?.stdout ?? '',
      stderr: `${captured?.stderr ?? ''}mcp-tools-conformance: internal error: ${error.stack ?? error.message}\n`,
    },
    () => process.exit(1),
  );
});

process.on('disconnect', () => process.exit(0));

process.on('message', async ({ args, env }) => {
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
  Object.assign(process.env, env);
  captured = { stdout: '', stderr: '' };
  let code;
  try {
    code = await main(args);
  } catch (error) {
    captured.stderr += `mcp-tools-conformance: internal error: ${error?.stack ?? String(error)}\n`;
    code = 3;
  }
  const { stdout, stderr } = captured;
  captured = null;
  process.send({ code, stdout, stderr });
});

process.send({ ready: true });
