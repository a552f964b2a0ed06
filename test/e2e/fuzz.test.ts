/**
 * Fuzzing: generated and mutated JSON and CSV vouchers, random bytes, hostile nesting and sizes,
 * through `validate` and `issue`. Whatever comes in: no stack trace, exit 0 (it was valid after
 * all), 2 (unreadable) or 3 (invalid), a message that names the file and the place, and for
 * anything but 0, nothing sent (the journal, written before every send, stays empty).
 *
 * Most cases run the CLI in-process (src/cli.ts `run`, the same code `bin/facturar.js` runs), so
 * hundreds fit in CI; the heaviest inputs go through real processes.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { runHere } from "../cli-here.js";
import { freshUser, journalText, ROOT, runCli, tempDir } from "../helpers.js";

const SAMPLES = join(ROOT, "samples");
const BASES = readdirSync(SAMPLES)
  .filter((f) => f.endsWith(".json"))
  .map((f) => JSON.parse(readFileSync(join(SAMPLES, f), "utf8")) as Record<string, unknown>);
const CSV_BASE = readFileSync(join(SAMPLES, "batch-nightly.csv"), "utf8");
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
/** FUZZ_RUNS=10 runs ten times as many cases, for a longer hunt than CI's. */
const SCALE = Number(process.env.FUZZ_RUNS ?? 1);
const outcomes: Record<string, number> = {};

/** Values people and broken exports put where a field belongs. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    "NaN",
    "Infinity",
    "-Infinity",
    "1e309",
    "-0",
    "0x10",
    "1,5",
    "1.234,56",
    "１２３",
    "",
    " ",
    "\u0000",
    "\uD800",
    "null",
    "9".repeat(400),
    "-1",
    "31/02/2026",
    "00/00/0000",
    "2026-11-22",
    "FACTURA Z",
    "../../etc/passwd",
    "%",
    "\u202Eevil",
    "a".repeat(100_000),
  ),
  fc.double(),
  fc.integer(),
  fc.bigInt().map(String),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
  fc.integer({ min: 1, max: 200 }).map((depth) => JSON.parse("[".repeat(depth) + "]".repeat(depth))),
);

type Path = (string | number)[];

function paths(value: unknown, prefix: Path = []): Path[] {
  if (value === null || typeof value !== "object") return [prefix];
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return [prefix, ...entries.flatMap(([k, v]) => paths(v, [...prefix, k]))];
}

interface Mutation {
  at: number;
  action: "set" | "delete" | "add";
  value: unknown;
  key: string;
}

/** A sample voucher with some fields replaced, removed or added. */
function mutate(base: Record<string, unknown>, mutations: Mutation[]): unknown {
  let root: unknown = structuredClone(base);
  for (const m of mutations) {
    const all = paths(root);
    const path = all[m.at % all.length] as Path;
    if (path.length === 0) {
      if (m.action === "set") root = m.value;
      continue;
    }
    let parent = root as Record<string | number, unknown>;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
    const last = path[path.length - 1] as string | number;
    if (m.action === "set") parent[last] = m.value;
    else if (m.action === "delete") {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
    } else if (!Array.isArray(parent)) parent[m.key] = m.value;
  }
  return root;
}

/** null four times in five: most cases keep their structure and reach the rules. */
function rarely<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null> {
  return fc.oneof({ arbitrary: fc.constant(null), weight: 4 }, { arbitrary, weight: 1 });
}

const mutation = fc.record({
  at: fc.nat(),
  action: fc.constantFrom("set", "delete", "add") as fc.Arbitrary<Mutation["action"]>,
  value: hostileValue,
  key: fc.string({ maxLength: 12 }),
});

/** A JSON file's bytes: a mutated sample, sometimes in an array, sometimes cut or corrupted. */
const jsonFile = fc
  .record({
    base: fc.nat({ max: BASES.length - 1 }),
    mutations: fc.array(mutation, { minLength: 1, maxLength: 4 }),
    asArray: fc.boolean(),
    damage: rarely(
      fc.record({ at: fc.nat(), kind: fc.constantFrom("cut", "byte"), byte: fc.integer({ min: 0, max: 255 }) }),
    ),
  })
  .map(({ base, mutations, asArray, damage }) => {
    const voucher = mutate(BASES[base] as Record<string, unknown>, mutations);
    const bytes = Buffer.from(JSON.stringify(asArray ? [voucher, BASES[0]] : voucher, null, 1) ?? "null");
    if (!damage) return bytes;
    const at = damage.at % bytes.length;
    return damage.kind === "cut"
      ? bytes.subarray(0, at)
      : Buffer.concat([bytes.subarray(0, at), Buffer.from([damage.byte]), bytes.subarray(at)]);
  });

/** A CSV file's bytes: the nightly export with cells replaced, rows dropped or doubled, bytes broken. */
const csvFile = fc
  .record({
    cells: fc.array(
      fc.record({ row: fc.nat(), column: fc.nat(), value: hostileValue, quoted: fc.nat({ max: 4 }).map((n) => n > 0) }),
      { maxLength: 4 },
    ),
    dropRow: rarely(fc.nat()),
    doubleRow: rarely(fc.nat()),
    delimiter: fc.constantFrom(",", ";"),
    damage: rarely(fc.record({ at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) })),
  })
  .map(({ cells, dropRow, doubleRow, delimiter, damage }) => {
    const rows = CSV_BASE.trimEnd()
      .split("\n")
      .map((line) => line.split(","));
    for (const c of cells) {
      const row = rows[1 + (c.row % (rows.length - 1))] as string[];
      const text = typeof c.value === "string" ? c.value : JSON.stringify(c.value ?? "");
      row[c.column % row.length] = c.quoted ? `"${text.replace(/"/g, '""')}"` : text;
    }
    if (dropRow !== null) rows.splice(1 + (dropRow % (rows.length - 1)), 1);
    if (doubleRow !== null) rows.push(rows[1 + (doubleRow % (rows.length - 1))] as string[]);
    const bytes = Buffer.from(`${rows.map((r) => r.join(delimiter)).join("\n")}\n`);
    if (!damage) return bytes;
    const at = damage.at % bytes.length;
    return Buffer.concat([bytes.subarray(0, at), Buffer.from([damage.byte]), bytes.subarray(at)]);
  });

const randomBytes = fc.uint8Array({ minLength: 0, maxLength: 4096 }).map((a) => Buffer.from(a));

const STACK_LINE = /^\s+at .+:\d+:\d+\)?$/m;

/** What every answer must be, whatever the input: one of the documented outcomes, in words. */
function judge(r: { code: number; stdout: string; stderr: string }, file: string, name: string): void {
  outcomes[r.code] = (outcomes[r.code] ?? 0) + 1;
  const all = `${r.stdout}\n${r.stderr}`;
  expect(all).not.toMatch(/internal error/);
  expect(all).not.toMatch(STACK_LINE);
  // 7: some vouchers issued or skipped, others' references used before for other content (an
  // earlier case issued the same reference with what this one mutated): conflicts, nothing sent.
  // 4: the service refused a purchase, in its words, for what no offline check can know: a
  // supplier's voucher an earlier case recorded under another reference. (A purchase without the
  // supplier's number is validate's to refuse, purchase.numero: exit 3.)
  expect([0, 2, 3, 4, 7]).toContain(r.code);
  if (r.code === 4) expect(all, all).toMatch(/comprobante de compra .* ya fue ingresado/);
  if (r.code === 7) expect(r.stderr).toMatch(/not sent: their reference was used before for another voucher/);
  if (r.code === 2) expect(r.stderr).toContain(file);
  if (r.code === 3) {
    // Each problem names its place (the file, then its row and column or field) before the message.
    const problems = r.stdout.split("\n").filter((l) => /^\s+(error\s|\S+\.(json|csv)\b)/.test(l));
    expect(problems.length).toBeGreaterThan(0);
    for (const line of problems) expect(line).toContain(name);
  }
}

describe("fuzzing validate and issue", () => {
  // How the cases ended, so that a run shows it tried more than one road.
  afterAll(() => console.log(`fuzz outcomes by exit code (seed ${SEED}):`, outcomes));
  const u = freshUser("facturar-fuzz-");
  const env = { PATH: process.env.PATH, ...u.env };
  const dir = tempDir("facturar-fuzz-files-");
  let n = 0;
  const write = (bytes: Buffer, ext: string) => {
    const name = `case-${n++}.${ext}`;
    writeFileSync(join(dir, name), bytes);
    return { file: join(dir, name), name };
  };

  it(`validate: mutated JSON, CSV and random bytes never crash it (seed ${SEED})`, async () => {
    const input = fc.oneof(
      { arbitrary: jsonFile.map((b) => [b, "json"] as const), weight: 4 },
      { arbitrary: csvFile.map((b) => [b, "csv"] as const), weight: 4 },
      { arbitrary: randomBytes.map((b) => [b, "json"] as const), weight: 1 },
      { arbitrary: randomBytes.map((b) => [b, "csv"] as const), weight: 1 },
    );
    await fc.assert(
      fc.asyncProperty(input, async ([bytes, ext]) => {
        const { file, name } = write(bytes, ext);
        judge(await runHere(["validate", file], env), file, name);
      }),
      { numRuns: 400 * SCALE, seed: SEED },
    );
  }, 120_000);

  it(`issue: what validate refuses is never sent (seed ${SEED})`, async () => {
    const input = fc.oneof(
      { arbitrary: jsonFile.map((b) => [b, "json"] as const), weight: 4 },
      { arbitrary: csvFile.map((b) => [b, "csv"] as const), weight: 4 },
      { arbitrary: randomBytes.map((b) => [b, "csv"] as const), weight: 1 },
    );
    await fc.assert(
      fc.asyncProperty(input, async ([bytes, ext]) => {
        const { file, name } = write(bytes, ext);
        const checked = await runHere(["validate", file], env);
        const before = journalText(u.env.XDG_STATE_HOME);
        const issued = await runHere(["issue", "--no-pdf", file], env);
        judge(issued, file, name);
        if (checked.code !== 0) {
          expect(issued.code).toBe(checked.code);
          expect(journalText(u.env.XDG_STATE_HOME)).toBe(before);
        }
      }),
      { numRuns: 60 * SCALE, seed: SEED },
    );
  }, 120_000);

  it("real processes: deep nesting, megabytes of noise, a 14 MB CSV broken at its end, bad UTF-8 midway", async () => {
    const u = freshUser("facturar-fuzz-process-");
    const deep = write(Buffer.from(`{"comprobante":${"[".repeat(100_000)}${"]".repeat(100_000)}}`), "json");
    const noise = write(Buffer.from(Array.from({ length: 3_000_000 }, (_, i) => (i * 7919 + 13) % 256)), "json");
    const header = CSV_BASE.split("\n")[0] as string;
    const rows = CSV_BASE.trimEnd().split("\n").slice(1);
    const many: string[] = [header];
    for (let i = 0; i < 300; i++)
      for (const row of rows) many.push(row.replace(/^([^,]*),/, (_, ref) => `${ref}-${i},`));
    many.push(`${(rows[0] as string).replace(/^([^,]*),/, "$1-last,")},extra-cell`);
    const huge = write(Buffer.from(`${many.join("\n")}\n`), "csv");
    const badUtf8 = write(
      Buffer.concat([Buffer.from(CSV_BASE.slice(0, 900)), Buffer.from([0xc3, 0x28]), Buffer.from(CSV_BASE.slice(900))]),
      "csv",
    );

    const deepR = await runCli(["validate", deep.file], { cwd: u.cwd, env: u.env });
    judge({ ...deepR, code: deepR.code ?? -1 }, deep.file, deep.name);
    expect(deepR.code).toBe(2);
    expect(deepR.stderr).toMatch(/comprobante\[0\]\[0\].*nested more than 24 levels deep/);

    const noiseR = await runCli(["issue", noise.file], { cwd: u.cwd, env: u.env });
    judge({ ...noiseR, code: noiseR.code ?? -1 }, noise.file, noise.name);
    expect(noiseR.code).toBe(2);

    const hugeR = await runCli(["--quiet", "issue", huge.file], { cwd: u.cwd, env: u.env });
    judge({ ...hugeR, code: hugeR.code ?? -1 }, huge.file, huge.name);
    expect(hugeR.code).toBe(2);
    expect(hugeR.stderr).toMatch(new RegExp(`${huge.name}:row ${many.length}: not valid CSV`));

    const utfR = await runCli(["validate", "--encoding", "utf8", badUtf8.file], { cwd: u.cwd, env: u.env });
    judge({ ...utfR, code: utfR.code ?? -1 }, badUtf8.file, badUtf8.name);
    expect(utfR.stderr).toMatch(/:row \d+, column [\w.]+: not valid UTF-8/);

    // None of it reached the service: nothing was ever journaled, so nothing was sent.
    expect(journalText(u.env.XDG_STATE_HOME)).toBe("");
  }, 120_000);
});
