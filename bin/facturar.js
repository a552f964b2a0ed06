#!/usr/bin/env node
// Thin shim: all logic lives in dist/cli.js, bundled by scripts/bundle.mjs.
// Under --verbose, internal errors print stack traces: mapped to src/ through the bundle's source
// maps (enabled before anything loads, as Node reads a module's map when it loads it).
if (process.argv.includes("--verbose") || process.argv.includes("-v")) process.setSourceMapsEnabled(true);
const { main } = await import("../dist/cli.js");

main(process.argv);
