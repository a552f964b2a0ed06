/** JSON voucher files: one envelope, or an array of them. */

import { InputError } from "../errors.js";
import { t } from "../i18n/index.js";
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

export function parseJsonVouchers(file: string, text: string): SourceVoucher[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const at = /position (\d+)/.exec(message);
    const place = at ? `${file}:${lineColumn(text, Number(at[1]))}` : file;
    throw new InputError(
      `${place}: ${t("not valid JSON ({message})", { message: message.replace(/^JSON\.parse: /, "") })}`,
      place,
    );
  }
  const isArray = Array.isArray(data);
  const items = isArray ? (data as unknown[]) : [data];
  if (isArray && items.length === 0) throw new InputError(`${file}: ${t("the array holds no voucher")}`, file);
  return items.map((raw, index) => {
    const label = isArray ? `${file}[${index}]` : file;
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) {
      throw new InputError(`${label}: ${t('expected a voucher object with "comprobante" and "cliente"')}`, label);
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
