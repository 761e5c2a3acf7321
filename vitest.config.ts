import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'suites/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most test files wait on the processes they audit: two files at a time on CI's two cores (vitest's default there is one).
    maxWorkers: 2,
  },
});
