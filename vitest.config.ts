import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'suites/**/*.test.ts', 'reference/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most test files wait on the processes they audit: two files at a time on CI's two cores (vitest's default there
    // is one).
    maxWorkers: 2,
    // One worker process runs many files: a fresh process and module graph per file cost ~40 s of CPU over the suite.
    isolate: false,
    // The build that tests import (test/helpers/cli.ts runInProcess) runs as Node loads it, not transformed.
    server: { deps: { external: [/[\\/]dist[\\/]/] } },
  },
});
