#!/usr/bin/env node
/**
 * The CLI as the installed package runs it: src/cli.ts and all it imports, bundled by esbuild into
 * one CommonJS file, dist/cli.cjs, that bin/facturar.js (through dist/launch.js) compiles with a
 * V8 code cache kept between runs. Start-up was mostly Node resolving, reading and compiling
 * modules, then V8 compiling their functions as they first ran (bench/startup.mjs); a cached
 * bundle skips both. Commands still load lazily: esbuild keeps an imported module's code in a
 * function run at its first import(). zod is tree-shaken (of its locales, Spanish alone: i18n/zod-es.ts).
 * `tsc -p tsconfig.build.json` writes dist/ module by module first (tests run some of those
 * modules in child processes, `npm run schema` one, and dist/cli.js is what runs where the
 * bundle is missing). dist/ is packed whole.
 * The first line of the bundle names it by a hash of the rest: the code cache's key (a cache
 * made for other code must never be used, and V8 checks only the source's length).
 * Usage: node scripts/bundle.mjs [outdir]   (npm run build runs it after tsc)
 *   BUNDLE_META=FILE writes esbuild's metafile there.
 */
import { createHash } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { build } from "esbuild";

const outdir = process.argv[2] ?? "dist";
const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

// What the ES module bundle of earlier builds left (dist/cli.js is tsc's again).
rmSync(`${outdir}/chunks`, { recursive: true, force: true });

const result = await build({
  entryPoints: ["src/cli.ts"],
  outfile: `${outdir}/cli.cjs`,
  bundle: true,
  format: "cjs",
  // Less to read and hash each start; names kept, so stack traces still say which function.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: "none",
  platform: "node",
  target: "node20",
  // import() of a bundled module becomes a call of its lazy initialiser; of an external package,
  // a require() (pdfkit, qrcode, typescript and @inquirer/prompts all ship CommonJS).
  supported: { "dynamic-import": false },
  // createRequire(import.meta.url) in the sources: the bundle's own place.
  define: { "import.meta.url": "__facturar_url" },
  banner: { js: 'var __facturar_url = require("node:url").pathToFileURL(__filename).href;' },
  sourcemap: true,
  // Stack traces need lines, not the sources: Node parses the map under --verbose.
  sourcesContent: false,
  // Loaded only when a PDF or QR code is drawn (the sandbox), a prompt asked, or a .ts config read;
  // pdfkit reads its fonts beside its own files.
  external: ["pdfkit", "qrcode", "typescript", "@inquirer/prompts"],
  // version.ts reads ../package.json beside its own file; the bundle is in dist/, not src/.
  plugins: [
    {
      name: "version",
      setup(b) {
        b.onLoad({ filter: /[\\/]src[\\/]version\.ts$/ }, () => ({
          contents: `export const VERSION = ${JSON.stringify(version)};`,
          loader: "ts",
        }));
      },
    },
  ],
  logLevel: "warning",
  metafile: Boolean(process.env.BUNDLE_META),
  write: false,
});

// The commands of src/cli.ts's lazy table (and commander's `help`): a cache is kept per command,
// and a mistyped word must not make one of its own.
const table = readFileSync("src/cli.ts", "utf8").match(/const COMMANDS\b.*\n([\s\S]*?)\n\};/)?.[1] ?? "";
const commands = ["help", ...[...table.matchAll(/^\s+"?([a-z-]+)"?: (async )?\(\) =>/gm)].map((m) => m[1])];
if (commands.length < 10 || commands.length !== table.split("\n").filter((l) => l.includes("=>")).length + 1) {
  throw new Error(`src/cli.ts: the command table was not read whole (${commands})`);
}

for (const file of result.outputFiles) {
  if (file.path.endsWith(".cjs")) {
    // The header names the code (src/launch.ts keys its cache by it); the map moves down a line.
    const hash = createHash("sha256").update(file.text).digest("hex").slice(0, 32);
    writeFileSync(file.path, `//facturar-bundle ${hash} ${commands.join(",")}\n${file.text}`);
  } else {
    const map = JSON.parse(file.text);
    map.mappings = `;${map.mappings}`;
    writeFileSync(file.path, JSON.stringify(map));
  }
}
// What went where (for esbuild's analyzer, or to see what a command line loads).
if (process.env.BUNDLE_META) writeFileSync(process.env.BUNDLE_META, JSON.stringify(result.metafile));
