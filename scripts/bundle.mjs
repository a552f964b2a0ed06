#!/usr/bin/env node
/**
 * The CLI as the installed package runs it: src/cli.ts and what it imports, bundled by esbuild
 * into dist/cli.js, with each lazily imported command in its own chunk under dist/chunks/ (so a
 * run still loads only what it needs), and source maps. Start-up was mostly Node resolving,
 * reading and compiling some 200 modules one by one, zod's 60 locales among them
 * (bench/startup.mjs); a few chunks per command line, zod tree-shaken, cost a fraction of that.
 * `tsc -p tsconfig.build.json` still writes dist/ module by module first (tests run some of those
 * modules in child processes, `npm run schema` one), and this replaces its dist/cli.js. dist/ is
 * packed whole: a build by tsc alone (unbundled, slower to start) still packs and runs.
 * Usage: node scripts/bundle.mjs [outdir]   (npm run build runs it after tsc)
 *   BUNDLE_META=FILE writes esbuild's metafile there.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname } from "node:path";
import { build } from "esbuild";

const outdir = process.argv[2] ?? "dist";
const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

// Node's own modules by require(), not import: importing one builds an ES facade that reads every
// export, and so loads what a require() leaves lazy (node:crypto's webcrypto, node:util's parseArgs).
const BUILTIN = new RegExp(`^(node:)?(${builtinModules.map((m) => m.replace(/[/]/g, "\\/")).join("|")})$`);
const builtinsByRequire = {
  name: "builtins-by-require",
  setup(b) {
    b.onResolve({ filter: BUILTIN }, (args) =>
      args.namespace === "builtin" ? { path: args.path, external: true } : { path: args.path, namespace: "builtin" },
    );
    b.onLoad({ filter: /.*/, namespace: "builtin" }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: "js",
    }));
  },
};

// Chunks are named by their content: those of an earlier build would pile up.
rmSync(`${outdir}/chunks`, { recursive: true, force: true });

const result = await build({
  entryPoints: ["src/cli.ts"],
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: true,
  // Stack traces need lines, not the sources: Node parses every loaded chunk's map under --verbose.
  sourcesContent: false,
  chunkNames: "chunks/[name]-[hash]",
  // Loaded only when a PDF or QR code is drawn (the sandbox), a prompt asked, or a .ts config read;
  // pdfkit reads its fonts beside its own files.
  external: ["pdfkit", "qrcode", "typescript", "@inquirer/prompts"],
  // version.ts reads ../package.json beside its own file; in a chunk that is dist/, not the root.
  plugins: [
    builtinsByRequire,
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

// Bundled CommonJS packages (cosmiconfig and what it requires) and the plugin above call require()
// through esbuild's __require, which uses the `require` in scope: an ES module has none of its
// own. It is given to the chunk that defines __require alone (a banner would make one in every
// chunk, some 25 for --help), and that chunk's source map moves down a line with it.
const REQUIRE =
  'import { createRequire as __facturarRequire } from "node:module"; const require = __facturarRequire(import.meta.url);';
const shifted = new Set();
const files = result.outputFiles.map((file) => {
  let text = file.text;
  if (file.path.endsWith(".js") && /\bvar __require\s*=/.test(text)) {
    text = `${REQUIRE}\n${text}`;
    shifted.add(`${file.path}.map`);
  }
  return { path: file.path, text };
});
for (const file of files) {
  if (shifted.has(file.path)) {
    const map = JSON.parse(file.text);
    map.mappings = `;${map.mappings}`;
    file.text = JSON.stringify(map);
  }
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, file.text);
}
// What went where (for esbuild's analyzer, or to see what a command line loads).
if (process.env.BUNDLE_META) writeFileSync(process.env.BUNDLE_META, JSON.stringify(result.metafile));
