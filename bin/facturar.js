#!/usr/bin/env node
// Thin shim: all logic lives in the compiled dist/cli.js.
import { main } from "../dist/cli.js";

main(process.argv);
