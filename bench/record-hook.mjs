// Loaded with `node --import` into an audited CLI process, for the round-trip floor (bench/floor.mjs): appends every
// message the CLI sends to its target, over every connection, to BENCH_RECORD_FILE as JSON lines, in the order sent:
// `{ "stdio": <child pid>, "line": … }` for a line written to a spawned target's stdin, `{ "http": { method, path,
// headers, body } }` for an HTTP request. Only the recording run loads it; the timed runs do not.
import { appendFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const file = process.env.BENCH_RECORD_FILE;
if (file) {
  const record = (entry) => appendFileSync(file, `${JSON.stringify(entry)}\n`);
  const require = createRequire(import.meta.url);
  const childProcess = require('node:child_process');
  const spawn = childProcess.spawn;
  childProcess.spawn = function recordingSpawn(...args) {
    const child = spawn.apply(this, args);
    const write = child.stdin?.write;
    if (write) {
      let pending = '';
      child.stdin.write = function recordingWrite(chunk, ...rest) {
        pending += String(chunk);
        const lines = pending.split('\n');
        pending = lines.pop();
        for (const line of lines) if (line.trim() !== '') record({ stdio: child.pid, line });
        return write.call(this, chunk, ...rest);
      };
    }
    return child;
  };
  syncBuiltinESMExports();
  // The CLI loads undici's Pool from the project's node_modules (src/transport/http-common.ts): the same module
  // instance.
  const projectRequire = createRequire(join(fileURLToPath(new URL('..', import.meta.url)), 'package.json'));
  for (const path of ['undici/lib/dispatcher/pool.js', 'undici']) {
    try {
      const loaded = projectRequire(path);
      const Pool = loaded.Pool ?? loaded;
      const dispatch = Pool.prototype.dispatch;
      Pool.prototype.dispatch = function recordingDispatch(options, handler) {
        record({
          http: {
            method: options.method,
            path: options.path,
            headers: options.headers ?? {},
            ...(typeof options.body === 'string' ? { body: options.body } : {}),
          },
        });
        return dispatch.call(this, options, handler);
      };
      break;
    } catch {
      // not installed this way: nothing recorded over HTTP
    }
  }
}
