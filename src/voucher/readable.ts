/**
 * The rules on a voucher the schema refused, where it can still be read: so one run shows every
 * problem, not the schema's first and the rules' after the fix.
 *
 * Each refused field is replaced by a stand-in the schema takes, twice, with two stand-ins far
 * apart (1900 and 2999, 0 and 99999999, a FACTURA A and a class C note…), and the rules run on both copies.
 * Only findings both runs agree on are kept: whatever depends on the unreadable value (a date
 * window, the totals, the class) differs between them and is dropped, as are findings on the
 * refused fields themselves. Unknown fields are simply left out.
 */
import type * as z from "zod";
import type { Finding, Path } from "./rules.js";
import { envelopeSchema, type ParsedEnvelope } from "./schema.js";

/** The rules and the checks after them, on a voucher the schema took. */
export type Judge = (envelope: ParsedEnvelope) => Finding[];

/** Stand-ins, tried in order; the first two distinct ones a field takes are used. Far apart on purpose. */
const STAND_INS: readonly unknown[] = [
  "01/01/1900",
  "31/12/2999",
  "01/1900",
  "12/2999",
  0,
  99_999_999,
  1,
  99_999,
  2,
  7,
  10.5,
  21,
  201,
  202,
  "S",
  "N",
  "V",
  "C",
  // Types of different classes and kinds: what depends on the type differs between them.
  "FACTURA A",
  "NOTA DE CREDITO C",
  "CF",
  "RI",
  "DNI",
  "CUIT",
  "PES",
  "DOL",
  "xxxx",
  "yyyyyyyy",
];

/** Gives up on a voucher with more refused fields than this: little of it can be read anyway. */
const MAX_REFUSED = 20;

type Schema = z.ZodType;

/** The schema of the field at `path`, through objects, arrays, optionals and defaults; undefined if unknown. */
function schemaAt(path: Path): Schema | undefined {
  let node: Schema | undefined = envelopeSchema;
  for (const key of path) {
    node = node && unwrap(node);
    const def: Record<string, unknown> | undefined = (node as { _zod?: { def?: Record<string, unknown> } } | undefined)
      ?._zod?.def;
    if (!def) return undefined;
    if (def.type === "object" && typeof key === "string") node = (def.shape as Record<string, Schema>)[key];
    else if (def.type === "array" && typeof key === "number") node = def.element as Schema;
    else return undefined;
  }
  return node;
}

function unwrap(node: Schema): Schema {
  let current = node;
  for (;;) {
    const def = (current as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
    if ((def.type === "optional" || def.type === "default") && def.innerType) current = def.innerType as Schema;
    else return current;
  }
}

/** Two distinct values the field takes (or its absence, once, when it may be left out). */
function standIns(path: Path): { value: unknown }[] {
  const schema = schemaAt(path);
  if (!schema) return [];
  const found: { value: unknown }[] = [];
  const seen = new Set<string>();
  for (const candidate of STAND_INS) {
    const parsed = schema.safeParse(candidate);
    if (!parsed.success) continue;
    const key = JSON.stringify(parsed.data);
    if (seen.has(key)) continue;
    seen.add(key);
    found.push({ value: candidate });
    if (found.length === 2) return found;
  }
  const absent = schema.safeParse(undefined).success;
  // One value only is no comparison: what depends on the field could not be told apart.
  if (found.length === 1) return absent ? [...found, { value: undefined }] : [];
  return absent ? [{ value: undefined }] : [];
}

function parentOf(root: unknown, path: Path): Record<string | number, unknown> | undefined {
  let node = root;
  for (const key of path.slice(0, -1)) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node !== null && typeof node === "object" ? (node as Record<string | number, unknown>) : undefined;
}

function setAt(root: unknown, path: Path, value: unknown): boolean {
  const parent = parentOf(root, path);
  const key = path[path.length - 1];
  if (!parent || key === undefined) return false;
  if (value === undefined) delete parent[key];
  else parent[key] = value;
  return true;
}

const within = (path: Path, prefix: Path) => prefix.length <= path.length && prefix.every((k, i) => path[i] === k);
const key = (f: Finding) => JSON.stringify([f.severity, f.code, f.path, f.message]);

/**
 * The findings of the rules that hold whatever the refused fields say; empty when the voucher
 * cannot be read (a block missing, a list that is not one).
 */
export function readableFindings(input: unknown, issues: z.core.$ZodIssue[], judge: Judge): Finding[] {
  const refusedByKey = new Map<string, Path>();
  const unknown: Path[] = [];
  for (const issue of issues) {
    const path = issue.path as Path;
    if (issue.code === "unrecognized_keys") for (const name of issue.keys) unknown.push([...path, name]);
    else refusedByKey.set(JSON.stringify(path), path);
  }
  const refused = [...refusedByKey.values()];
  if (refused.length > MAX_REFUSED || refused.some((p) => p.length === 0)) return [];
  const options = refused.map(standIns);
  if (options.some((o) => o.length === 0)) return [];

  const run = (pick: 0 | 1): Finding[] | undefined => {
    const copy = structuredClone(input);
    for (const path of unknown) setAt(copy, path, undefined);
    for (const [i, path] of refused.entries()) {
      const choice = options[i] as { value: unknown }[];
      if (!setAt(copy, path, (choice[pick] ?? choice[0])?.value)) return undefined;
    }
    const parsed = envelopeSchema.safeParse(copy);
    return parsed.success ? judge(parsed.data) : undefined;
  };
  const first = run(0);
  const second = run(1);
  if (!first || !second) return [];
  const agreed = new Set(second.map(key));
  return first.filter((f) => agreed.has(key(f)) && !refused.some((p) => within(f.path, p)));
}
