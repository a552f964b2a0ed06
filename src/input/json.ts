/** JSON voucher files: one envelope, or an array of them. */

import { InputError } from "../errors.js";
import { concat, msg } from "../i18n/message.js";
import { formatPath } from "../voucher/path.js";
import type { SourceVoucher } from "./source.js";

/** Line and column (1-based) of a character offset, for JSON syntax errors. */
function lineColumn(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return `${line}:${offset - lineStart + 1}`;
}

/** A voucher is at most six levels deep; the schema's checks recurse, so a hostile depth stops here. */
const MAX_DEPTH = 24;

/** The path to the first value nested deeper than MAX_DEPTH, found without recursion. */
function tooDeep(root: unknown): (string | number)[] | undefined {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: root, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop() as { value: unknown; path: (string | number)[] };
    if (value === null || typeof value !== "object") continue;
    if (path.length >= MAX_DEPTH) return path;
    const children: [string | number, unknown][] = Array.isArray(value) ? [...value.entries()] : Object.entries(value);
    for (const [key, child] of children) stack.push({ value: child, path: [...path, key] });
  }
  return undefined;
}

export function parseJsonVouchers(file: string, text: string): SourceVoucher[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const at = /position (\d+)/.exec(message);
    const place = at ? `${file}:${lineColumn(text, Number(at[1]))}` : file;
    throw new InputError(
      concat(place, ": ", msg("not valid JSON ({message})", { message: message.replace(/^JSON\.parse: /, "") })),
      place,
    );
  }
  const isArray = Array.isArray(data);
  const items = isArray ? (data as unknown[]) : [data];
  if (isArray && items.length === 0) throw new InputError(concat(file, ": ", msg("the array holds no voucher")), file);
  return items.map((raw, index) => {
    const label = isArray ? `${file}[${index}]` : file;
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
      throw new InputError(
        concat(label, ": ", msg('expected a voucher object with "comprobante" and "cliente"')),
        label,
      );
    }
    const deep = tooDeep(raw);
    if (deep) {
      const place = `${label} ${formatPath(deep.slice(0, 6))}`;
      throw new InputError(
        concat(place, "…: ", msg("nested more than {depth} levels deep; no voucher field is", { depth: MAX_DEPTH })),
        place,
      );
    }
    return {
      file,
      index,
      raw,
      readerFindings: [],
      label,
      place: (path) => `${label} ${formatPath(path)}`,
    };
  });
}
