// Loaded with `node --import` into the audited CLI process only: on exit, writes that process's own resource
// usage (CPU time in µs, peak RSS in KiB) to the file named by BENCH_RUSAGE_FILE.
import { writeFileSync } from 'node:fs';

const file = process.env.BENCH_RUSAGE_FILE;
if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(
      file,
      JSON.stringify({ userUs: usage.userCPUTime, systemUs: usage.systemCPUTime, maxRssKb: usage.maxRSS }),
    );
  });
}
