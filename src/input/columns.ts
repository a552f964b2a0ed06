/**
 * The CSV column catalogue, derived from the voucher schema's JSON Schema so that the two can
 * never disagree. A column is a dotted path into the envelope; array elements other than items
 * take an index segment (`comprobante.tributos.0.alicuota`), items take none (one item per row).
 */
import * as z from "zod";
import { envelopeSchema } from "../voucher/schema.js";

export const ITEM_PREFIX = "comprobante.detalle.";
export const TAGS_COLUMN = "comprobante.tags";
export const REFERENCE_COLUMN = "comprobante.external_reference";
/** Placeholder for an array index in a column pattern. */
const INDEX = "#";

export interface ColumnSpec {
  /** Pattern with `#` for array indexes: `comprobante.tributos.#.alicuota`. */
  pattern: string;
  numeric: boolean;
}

interface JsonSchemaNode {
  type?: string | string[];
  pattern?: string;
  enum?: unknown[];
  anyOf?: JsonSchemaNode[];
  properties?: Record<string, JsonSchemaNode>;
  items?: JsonSchemaNode;
}

/** Fields of the envelope that a CSV never carries (credentials come from the profile). */
const NOT_IN_CSV = new Set(["$schema", "usertoken", "apikey", "apitoken"]);

function types(node: JsonSchemaNode): string[] {
  const own = node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type];
  return [...own, ...(node.anyOf ?? []).flatMap(types)];
}

function walk(node: JsonSchemaNode, prefix: string, out: ColumnSpec[]): void {
  const t = types(node);
  if (node.properties) {
    for (const [key, child] of Object.entries(node.properties)) {
      if (prefix === "" && NOT_IN_CSV.has(key)) continue;
      walk(child, prefix === "" ? key : `${prefix}.${key}`, out);
    }
    return;
  }
  if (t.includes("array") && node.items) {
    if (prefix === "comprobante.detalle") walk(node.items, prefix, out);
    else if (prefix === TAGS_COLUMN) out.push({ pattern: prefix, numeric: false });
    else walk(node.items, `${prefix}.${INDEX}`, out);
    return;
  }
  // Text that may also be written as a number (a product code) is text: no decimal commas there.
  const freeText = (node.anyOf ?? [node]).some((n) => types(n).includes("string") && !n.pattern && !n.enum);
  out.push({ pattern: prefix, numeric: (t.includes("number") || t.includes("integer")) && !freeText });
}

let catalogue: Map<string, ColumnSpec> | undefined;

/** Every column a CSV may have, by pattern. Built once from the schema. */
export function columnCatalogue(): Map<string, ColumnSpec> {
  if (!catalogue) {
    const json = z.toJSONSchema(envelopeSchema, { io: "input", unrepresentable: "any" }) as JsonSchemaNode;
    const list: ColumnSpec[] = [];
    walk(json, "", list);
    catalogue = new Map(list.map((c) => [c.pattern, c]));
  }
  return catalogue;
}

/** `comprobante.tributos.0.alicuota` → `comprobante.tributos.#.alicuota`. */
export function columnPattern(name: string): string {
  return name
    .split(".")
    .map((s) => (/^\d+$/.test(s) ? INDEX : s))
    .join(".");
}

/** The closest known column, to suggest when a header has a typo. */
export function suggestColumn(name: string): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const pattern of columnCatalogue().keys()) {
    const d = editDistance(columnPattern(name), pattern);
    if (d < bestDistance) {
      bestDistance = d;
      best = pattern;
    }
  }
  return best !== undefined && bestDistance <= Math.max(3, Math.floor(name.length / 5)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
