#!/usr/bin/env node
// Thin shim: all logic lives in dist/ (src/launch.ts: the bundle, through V8's code cache).
const { launch } = await import("../dist/launch.js");

await launch(process.argv);
