/**
 * Words as data. The core says what happened with `msg()`: the English template (the key of the
 * Spanish catalog) and its parameters, amounts and rates as numbers. It never picks a language:
 * the renderers (src/commands, src/output, src/cli.ts) put a message into the reader's words
 * with `say()` of ./index.ts, so the core's results and errors read the same under any LANG.
 */
export type Lang = "en" | "es";

/** A number people read: an amount (two decimals, grouped in thousands), a VAT rate, a count. */
export interface Figure {
  readonly figure: "amount" | "rate" | "count";
  /** Plain decimal text as the service writes it: `-1234.5`. */
  readonly plain: string;
}

/** What a message takes: text, a number, a nested message, a figure for the reader's notation. */
export type Param = string | number | bigint | null | undefined | Message | Figure;
export type Params = Readonly<Record<string, Param>>;

export interface Message {
  /** The English template, `{name}` marking a parameter; the key of the Spanish catalog. */
  readonly template: string;
  readonly params?: Params;
  /** The plural template, and the count that chooses (`{n}` in both). */
  readonly plural?: { readonly other: string; readonly count: number };
  /** Someone else's words (the service's), shown as they are: no catalog, no parameters. */
  readonly verbatim?: true;
  /** zod's own issue (its data, no input value): a renderer with zod's locale says it in the reader's language. */
  readonly zod?: Readonly<Record<string, unknown>>;
}

/** Says a zod issue in a language (zod's locale); undefined where it has no words for it. */
export type ZodWords = (issue: Readonly<Record<string, unknown>>) => string | undefined;

/** What a renderer can say: one of our messages, or text that is already words. */
export type Text = string | Message;

/**
 * The messages this process made (msg() and its kin) or read back from its own files: the only
 * objects a JSON renderer says. Data from elsewhere (a service's answer passed on as it came) may
 * hold an object shaped like a message, and stays data.
 */
const OURS = new WeakSet<object>();

/** Marks `message` as ours: for a message built by spreading another, or parsed from our own file. */
export function ours<T extends Message>(message: T): T {
  OURS.add(message);
  return message;
}

/** A message facturar made or read back from its own file (see `ours`), not merely one's shape. */
export function isOurs(value: unknown): value is Message {
  return isMessage(value) && OURS.has(value);
}

export function msg(template: string, params?: Params): Message {
  return ours(params ? { template, params } : { template });
}

/** The singular or the plural message by `count`, with `{n}` the count grouped in thousands. */
export function msgn(count: number, one: string, other: string, params?: Params): Message {
  return ours({
    template: one,
    params: { n: { figure: "count", plain: String(count) }, ...params },
    plural: { other, count },
  });
}

/** Words that are not ours (the service's, a library's): shown as they are in every language. */
export function verbatim(text: string): Message {
  return ours({ template: text, verbatim: true });
}

export function isMessage(value: unknown): value is Message {
  return typeof value === "object" && value !== null && typeof (value as Message).template === "string";
}

function isFigure(value: unknown): value is Figure {
  return typeof value === "object" && value !== null && typeof (value as Figure).figure === "string";
}

/** An amount for a message: rendered with two decimals, grouped as the reader writes numbers. */
export function amountFigure(plain: string): Figure {
  return { figure: "amount", plain };
}

/** A VAT rate for a message (`10.5`): es `10,5`, en `10.5`. */
export function rateFigure(rate: string | number): Figure {
  return { figure: "rate", plain: String(rate) };
}

/** How each language writes numbers: es-AR `1.234,5`, English `1,234.5`. */
export const SEPARATORS = { es: { group: ".", decimal: "," }, en: { group: ",", decimal: "." } } as const;

/** Whole digits grouped in thousands as `lang` writes them (`1234567` → es `1.234.567`). */
export function groupThousands(digits: string, lang: Lang): string {
  return digits.replace(/\B(?=(\d{3})+$)/g, SEPARATORS[lang].group);
}

const PLAIN = /^(-?)(\d+)(?:\.(\d+))?$/;

/** A plain decimal (`-1234.5`, `1500`) grouped in thousands; anything else as it is. */
export function numberIn(lang: Lang, plain: string | number): string {
  const text = String(plain);
  const parts = PLAIN.exec(text);
  if (!parts) return text;
  const [, sign, whole = "", fraction] = parts;
  const grouped = groupThousands(whole, lang);
  return `${sign}${grouped}${fraction === undefined ? "" : `${SEPARATORS[lang].decimal}${fraction}`}`;
}

/** A VAT rate (`10.5`, `21`) as the reader writes it, without grouping: es `10,5`, en `10.5`. */
export function rateIn(lang: Lang, rate: string | number): string {
  const text = String(rate);
  return PLAIN.test(text) ? text.replace(".", SEPARATORS[lang].decimal) : text;
}

function figureIn(lang: Lang, f: Figure): string {
  if (f.figure === "rate") return rateIn(lang, f.plain);
  if (f.figure === "count") return PLAIN.test(f.plain) && !f.plain.includes(".") ? numberIn(lang, f.plain) : f.plain;
  return numberIn(lang, f.plain);
}

const PARAM = /\{(\w+)\}/g;

/**
 * A message in `lang`, its templates looked up in `catalog` (English when it has none), its
 * parameters filled in and rendered the same way. Plain text is returned as it is.
 */
export function render(
  text: Text,
  lang: Lang,
  catalog?: Readonly<Record<string, string>>,
  zodWords?: ZodWords,
): string {
  if (typeof text === "string") return text;
  if (text.zod && zodWords) return zodWords(text.zod) ?? text.template;
  if (text.verbatim) return text.template;
  const english = text.plural && text.plural.count !== 1 ? text.plural.other : text.template;
  const template = catalog?.[english] ?? english;
  const params = text.params;
  if (!params) return template;
  return template.replace(PARAM, (whole, name: string) => {
    if (!Object.hasOwn(params, name)) return whole;
    const value = params[name];
    if (isFigure(value)) return figureIn(lang, value);
    if (isMessage(value)) return render(value, lang, catalog, zodWords);
    return String(value);
  });
}

/** The English words of a message: what an Error's `message` and a log carry. */
export function english(text: Text): string {
  return render(text, "en");
}

/** Pieces said one after another (`{0}{1}…`): a message, then the service's words, say. */
export function concat(...parts: Param[]): Message {
  return ours({
    template: parts.map((_, i) => `{${i}}`).join(""),
    params: Object.fromEntries(parts.map((p, i) => [i, p])),
  });
}

/** Pieces with `separator` between them (`a, b, c`). */
export function joined(parts: readonly Param[], separator: string): Message {
  return concat(...parts.flatMap((part, i) => (i === 0 ? [part] : [separator, part])));
}

/**
 * `value` with every message in it replaced by what `say` makes of it (its words with `english`
 * or a renderer's `say`; itself again, checked, with `storedText`): what a JSON renderer writes,
 * what a test compares, what a file of ours gives back. Plain objects and arrays are walked;
 * anything else is kept.
 */
export function sayingAll<T>(value: T, say: (message: Message) => Text): T {
  const walk = (v: unknown): unknown => {
    if (isMessage(v)) return say(v);
    if (Array.isArray(v)) return v.map(walk);
    if (plainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** The most a message read back from a file may nest, and say (in characters of its English). */
const STORED_DEPTH = 32;
const STORED_SIZE = 1_000_000;
const FIGURES = new Set<unknown>(["amount", "rate", "count"]);

function plainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * How many characters `value`, a message read back from JSON, says at most (its English, each
 * parameter counted where it is used); undefined when it is not one of ours as msg() builds them.
 * Linear in its size: each parameter is measured once, however often its template names it.
 */
function storedSize(value: unknown, depth: number): number | undefined {
  if (depth > STORED_DEPTH || !plainObject(value) || typeof value.template !== "string") return undefined;
  const { template, params, plural, verbatim: theirs, zod } = value;
  if (theirs !== undefined && theirs !== true) return undefined;
  if (zod !== undefined && !(plainObject(zod) && typeof zod.code === "string")) return undefined;
  if (
    plural !== undefined &&
    !(plainObject(plural) && typeof plural.other === "string" && Number.isFinite(plural.count))
  )
    return undefined;
  const templates = [template, ...(plainObject(plural) ? [plural.other as string] : [])];
  let size = Math.max(...templates.map((x) => x.length));
  if (params === undefined || theirs) return size;
  if (!plainObject(params)) return undefined;
  for (const [name, param] of Object.entries(params)) {
    let each: number | undefined;
    if (param === null || ["string", "number", "boolean"].includes(typeof param)) each = String(param).length;
    else if (plainObject(param) && "figure" in param)
      each = FIGURES.has(param.figure) && typeof param.plain === "string" ? 2 * param.plain.length : undefined;
    else each = storedSize(param, depth + 1);
    if (each === undefined) return undefined;
    const uses = Math.max(...templates.map((x) => x.split(`{${name}}`).length - 1));
    size += uses * each;
    if (size > STORED_SIZE) return undefined;
  }
  return size;
}

/**
 * Text read back from a file we wrote (the journal's `errors`): words as they are, a message as
 * msg() built it. Anything else (a line edited by hand, another program's data, a message too
 * deep or too long to say) is quoted as the file holds it, cut short: never a crash, never
 * "[object Object]".
 */
export function storedText(value: unknown): Text {
  if (typeof value === "string") return value;
  if (storedSize(value, 0) !== undefined) return ours(value as Message);
  let quoted: string;
  try {
    quoted = JSON.stringify(value) ?? String(value);
  } catch {
    return msg("(not shown: nested too deeply)");
  }
  return verbatim(quoted.length > 200 ? `${quoted.slice(0, 199)}…` : quoted);
}

/** A list of texts read back from a file: one that is not a list is one text. */
export function storedTexts(value: unknown): Text[] {
  return (Array.isArray(value) ? value : [value]).map(storedText);
}

/**
 * A value we wrote to a file of our own and read back (a spilled voucher's warnings): each
 * message in it is ours again (storedText), everything else as it was.
 */
export function revived<T>(value: T): T {
  return sayingAll(value, storedText);
}

/** A value of the same kind as `input`, for zod's locale to name the kind (the value itself is not kept). */
function sampleOf(input: unknown): unknown {
  if (input === null || input === undefined) return input;
  if (Array.isArray(input)) return [];
  switch (typeof input) {
    case "object":
      return {};
    case "string":
      return "";
    case "number":
      return Number.isNaN(input) ? Number.NaN : 0;
    case "boolean":
      return false;
    default:
      return null;
  }
}

/**
 * zod's own issue (a wrong JSON type, an unknown key) as a message: zod's English, and its data
 * for a renderer with zod's locale to say it in the reader's language. `input` is the value at
 * the issue's path (zod keeps none); only its kind is kept.
 */
export function zodIssue(issue: { readonly message: string; readonly path?: unknown }, input?: unknown): Message {
  const { path: _path, ...data } = issue as Record<string, unknown>;
  return ours({ ...verbatim(issue.message), zod: { ...data, input: sampleOf(input) } });
}
