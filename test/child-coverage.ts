// Loaded by vitest.coverage.config.ts only: the processes the tests spawn inherit this and write
// their V8 coverage there. Set in the worker, after it started, so the worker itself writes none.
const dir = process.env.FACTURAR_CHILD_COVERAGE;
if (dir) process.env.NODE_V8_COVERAGE = dir;
