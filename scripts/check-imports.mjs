#!/usr/bin/env node
/**
 * Checks that every import in src/ (static, `export … from`, `import type` and dynamic
 * `import()`) follows the layering table in ARCHITECTURE.md: the table is the rule, written once;
 * this script only reads it. Exit 1 names each file, line, import and the rule it breaks.
 *
 *   node scripts/check-imports.mjs [root]     (root: the project folder, by default this one's parent)
 */

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), ".."));
const doc = readFileSync(join(root, "ARCHITECTURE.md"), "utf8");

/** The table between the markers: `| layer | files | may import | … |`, one row per layer. */
function layers(text) {
  const begin = text.indexOf("<!-- layers:begin -->");
  const end = text.indexOf("<!-- layers:end -->");
  if (begin < 0 || end < begin)
    throw new Error("ARCHITECTURE.md: no <!-- layers:begin --> … <!-- layers:end --> table");
  const names = (cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  const rows = [];
  for (const line of text.slice(begin, end).split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    if (cells.length < 5 || !cells[1].startsWith("`")) continue;
    const [name] = names(cells[1]);
    rows.push({ name, paths: names(cells[2]), may: names(cells[3]) });
  }
  const known = new Set(rows.map((r) => r.name));
  for (const r of rows)
    for (const m of r.may)
      if (!known.has(m)) throw new Error(`ARCHITECTURE.md: ${r.name} may import ${m}, no such layer`);
  return rows;
}

const rows = layers(doc);

/** A file's layer: the row whose path is the longest prefix of it. */
function layerOf(file) {
  let best;
  let length = -1;
  for (const r of rows)
    for (const p of r.paths)
      if ((file === p || (p.endsWith("/") && file.startsWith(p))) && p.length > length) {
        best = r;
        length = p.length;
      }
  return best;
}

/** The table must itself be a layering: no layer reaches back to itself through others. */
function cycleIn() {
  const by = new Map(rows.map((r) => [r.name, r.may.filter((m) => m !== r.name)]));
  const state = new Map();
  const walk = (name, path) => {
    if (state.get(name) === "done") return undefined;
    if (state.get(name) === "open") return [...path.slice(path.indexOf(name)), name];
    state.set(name, "open");
    for (const next of by.get(name) ?? []) {
      const found = walk(next, [...path, name]);
      if (found) return found;
    }
    state.set(name, "done");
    return undefined;
  };
  for (const r of rows) {
    const found = walk(r.name, []);
    if (found) return found;
  }
  return undefined;
}

function sources(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(path));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out;
}

const problems = [];
const cycle = cycleIn();
if (cycle) problems.push(`ARCHITECTURE.md: the layers form a cycle: ${cycle.join(" → ")}`);
const files = sources(join(root, "src")).map((f) => relative(root, f).split(sep).join("/"));
for (const file of files.sort()) {
  const from = layerOf(file);
  if (!from) {
    problems.push(`${file}: in no layer of ARCHITECTURE.md (add its folder to the table)`);
    continue;
  }
  const text = readFileSync(join(root, file), "utf8");
  // TypeScript's own scan: static, re-exports, `import type` and `import("…")`, never a string that only looks like one.
  const { importedFiles } = ts.preProcessFile(text, true, true);
  for (const imported of importedFiles) {
    if (!imported.fileName.startsWith(".")) continue; // packages and node: builtins
    const target = relative(root, resolve(root, dirname(file), imported.fileName))
      .split(sep)
      .join("/")
      .replace(/\.js$/, ".ts");
    const to = layerOf(target);
    if (!to) {
      problems.push(`${file}: imports ${imported.fileName}, which is in no layer of ARCHITECTURE.md`);
      continue;
    }
    if (to === from || from.may.includes(to.name)) continue;
    const line = text.slice(0, imported.pos).split("\n").length;
    problems.push(
      `${file}:${line}: imports ${imported.fileName} (${to.name}), but ${from.name} may import only ${from.may.join(", ") || "itself"} (ARCHITECTURE.md, "Layers")`,
    );
  }
}

if (problems.length > 0) {
  for (const p of problems) console.error(p);
  console.error(`check-imports: ${problems.length} broken rule${problems.length === 1 ? "" : "s"}`);
  process.exit(1);
}
console.log(`check-imports: ${files.length} files follow the ${rows.length} layers of ARCHITECTURE.md`);
