/**
 * `facturar issue --interactive`: the voucher asked for on a terminal — type, customer, items,
 * date and reference — then its computed totals, a confirmation, the issue with its PDF, and an
 * offer to keep it as a JSON file for next time. Each answer is checked at its prompt by the
 * voucher rules, and what only the whole voucher can tell (the ceiling for unidentified
 * consumers, a period after the date) sends the user back to the prompt of the field at fault,
 * keeping every other answer. `--from-ref R` starts from an issued voucher: its note, pre-filled.
 */

import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { RegistryRecord } from "../api/protocol.js";
import { accountId, readableReference } from "../batch/journal.js";
import { stateDir } from "../config/paths.js";
import type { Context } from "../context.js";
import { textOf, UsageError } from "../errors.js";
import { currentLang, say, t, tn } from "../i18n/index.js";
import { readableRate } from "../i18n/numbers.js";
import { commaNumber } from "../input/numbers.js";
import type { SourceVoucher } from "../input/source.js";
import { amountText } from "../output/amounts.js";
import {
  DEFAULT_FINAL_CONSUMER_CEILING,
  DOCUMENT_TYPES,
  PAYMENT_CONDITION_CASH,
  PAYMENT_CONDITION_OTHER,
  PAYMENT_CONDITIONS,
  VAT_CONDITION_NAMES,
  VAT_CONDITIONS_BY_CLASS,
  type VatCondition,
  voucherTypeInfo,
} from "../voucher/codes.js";
import { argentinaToday, clockFrom, dayNumber, formatDay } from "../voucher/dates.js";
import { Dec } from "../voucher/decimal.js";
import { cuitProblem, describeCuitProblem } from "../voucher/ids.js";
import { type BuiltNote, type NoteKind, noteFromVoucher } from "../voucher/notes.js";
import type { Finding, Path } from "../voucher/rules.js";
import { describeTotals } from "../voucher/totals.js";
import { dueDateByDefault, ruleOptions, type ValidationResult, validateEnvelope } from "../voucher/validate.js";
import { type Prompts, prompts } from "./prompts.js";

const TYPES = [
  "FACTURA B",
  "FACTURA A",
  "FACTURA C",
  "FACTURA M",
  "NOTA DE CREDITO B",
  "NOTA DE CREDITO A",
  "NOTA DE CREDITO C",
];
/** The VAT rates to choose from, written as the reader writes them (es `10,5 %`). */
function rateChoices(): { name: string; value: string }[] {
  return [
    ...["21", "10.5", "27", "0"].map((value) => ({ name: `${readableRate(value)} %`, value })),
    { name: t("exempt"), value: "-1" },
    { name: t("non-taxed"), value: "-2" },
  ];
}
const AMOUNT = /^\d{1,13}(\.\d{1,3})?$/;
const QUANTITY = /^\d{1,13}(\.\d{1,2})?$/;
/** Rounds of going back to a field before the guide gives up and shows every error. */
const MAX_ROUNDS = 20;

type Json = Record<string, unknown>;
type Draft = Json & {
  cliente: Json;
  comprobante: Json & { detalle: Json[] };
};

/**
 * A number as typed at a prompt, in the form the schema reads. In Spanish it is written as
 * es-AR writes it (`45.000,50`); an ambiguous `7.00` is refused, and the prompt asks again.
 */
function asTyped(text: string): string {
  const trimmed = text.trim();
  if (currentLang() !== "es") return trimmed;
  return commaNumber(trimmed) ?? "?";
}

/** A schema number as the user types it: `1500,5` in Spanish. */
function asShown(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return readableRate(String(value));
}

function startsWith(path: Path, prefix: Path): boolean {
  return prefix.every((key, i) => path[i] === key);
}

/** What stops a voucher at the guide: the rules' errors, and a date outside the authority's window. */
function blocking(f: Finding): boolean {
  return f.severity === "error" || f.code === "date.window" || f.code === "email.format";
}

/** Refuses an answer that turns out wrong with the rest, at a prompt: data in, data out. */
class Guide {
  private ceilingAmount: Dec | undefined;
  /** The amounts a credit note from a voucher may not exceed, item by item. */
  private limits: ({ cantidad: string; precio: string } | undefined)[] = [];

  constructor(
    private readonly ctx: Context,
    private readonly p: Prompts,
    readonly draft: Draft,
    private readonly fetchCeiling: () => Promise<Dec>,
    /** The registry's record of a CUIT, to offer its name and VAT condition; undefined when it cannot say. */
    private readonly lookupCuit: (cuit: string) => Promise<RegistryRecord | undefined> = async () => undefined,
  ) {}

  /** The clock (FACTURAR_TODAY moves it in tests). */
  get now(): Date {
    return clockFrom(this.ctx.io.env)();
  }

  get info() {
    return voucherTypeInfo(String(this.draft.comprobante.tipo));
  }

  get cls() {
    return this.info?.class ?? "B";
  }

  private get chargesVat(): boolean {
    return this.cls === "A" || this.cls === "B" || this.cls === "M";
  }

  /** The first message the rules have for `path` once `change` is applied to a copy of the draft. */
  problemAt(path: Path, change: (d: Draft) => void): string | undefined {
    const probe = structuredClone(this.draft);
    change(probe);
    // Fields asked before the items are checked on a voucher with a stand-in item.
    if (probe.comprobante.detalle.length === 0)
      probe.comprobante.detalle.push({
        cantidad: "1",
        producto: { descripcion: "----", precio_unitario_sin_iva: "1", alicuota: this.chargesVat ? "21" : "0" },
      });
    delete probe.comprobante.total;
    const check = validateEnvelope(probe, ruleOptions({ ceiling: "999999999999999", now: this.now }));
    const found = check.findings.find((f) => blocking(f) && startsWith(f.path, path));
    return found && say(found.message);
  }

  async type(): Promise<void> {
    const tipo = await this.p.select({
      message: t("Voucher type"),
      choices: TYPES.map((type) => ({ name: type, value: type })),
      ...(this.draft.comprobante.tipo ? { default: String(this.draft.comprobante.tipo) } : {}),
    });
    this.draft.comprobante.tipo = tipo;
  }

  /** The whole customer; `anonymous: false` when the sale reached the ceiling for unidentified ones. */
  async customer(anonymous = true): Promise<void> {
    const cls = this.cls;
    const old = this.draft.cliente;
    if (
      anonymous &&
      (cls === "B" || cls === "C") &&
      (await this.p.confirm({
        message: t("Unidentified final consumer (no name, no document)?"),
        default: old.documento_tipo === "OTRO",
      }))
    ) {
      this.draft.cliente = {
        ...pick(old, ["domicilio", "email", "condicion_pago", "condicion_pago_otra"]),
        documento_tipo: "OTRO",
        documento_nro: "0",
        razon_social: "Consumidor final",
        condicion_iva: "CF",
      };
      return;
    }
    const needsCuit = cls === "A" || cls === "M" || this.info?.fce;
    const documento_tipo = needsCuit
      ? "CUIT"
      : await this.p.select({
          message: t("Customer's document"),
          choices: DOCUMENT_TYPES.filter((d) => d !== "OTRO").map((d) => ({ name: d, value: d })),
          default: old.documento_tipo && old.documento_tipo !== "OTRO" ? String(old.documento_tipo) : "DNI",
        });
    const clean = (v: string) => v.replace(/[-\s.]/g, "");
    const documento_nro = clean(
      await this.p.input({
        message: t("{type} number", { type: documento_tipo }),
        ...(old.documento_tipo === documento_tipo ? { default: String(old.documento_nro) } : {}),
        validate: (v) => {
          const digits = clean(v);
          if (!/^\d+$/.test(digits)) return t("digits only");
          if (documento_tipo === "CUIT" || documento_tipo === "CUIL") {
            const problem = cuitProblem(digits);
            if (problem) return say(describeCuitProblem(problem, digits));
          }
          return (
            this.problemAt(["cliente", "documento_nro"], (d) => {
              d.cliente = { ...d.cliente, documento_tipo, documento_nro: digits, condicion_iva: "CF" };
            }) ?? true
          );
        },
      }),
    );
    // A CUIT typed anew: the registry's name and condition are offered (an answer kept from before wins).
    const sameAsBefore = old.documento_tipo === documento_tipo && String(old.documento_nro) === documento_nro;
    const record = documento_tipo === "CUIT" && !sameAsBefore ? await this.lookupCuit(documento_nro) : undefined;
    if (record)
      this.ctx.err(
        this.ctx.errColor.dim(
          t("registry: {name}, {condition}", {
            name: record.razon_social,
            condition: record.condicion_impositiva || t("registered in neither VAT nor the monotributo"),
          }),
        ),
      );
    const nameByDefault =
      old.razon_social && old.documento_tipo !== "OTRO" && (sameAsBefore || !record)
        ? String(old.razon_social)
        : record?.razon_social;
    const razon_social = (
      await this.p.input({
        message: t("Customer's name"),
        ...(nameByDefault ? { default: nameByDefault } : {}),
        validate: (v) => v.trim() !== "" || t("required"),
      })
    ).trim();
    // Only the conditions the rules take with this document: a B to an exempt customer needs a CUIT.
    const fits = VAT_CONDITIONS_BY_CLASS[cls].filter(
      (c) =>
        this.problemAt(["cliente"], (d) => {
          d.cliente = { documento_tipo, documento_nro, razon_social, condicion_iva: c };
        }) === undefined,
    );
    const allowed = fits.length > 0 ? fits : VAT_CONDITIONS_BY_CLASS[cls];
    const registered = record?.condicion_iva ?? undefined;
    // The registry's condition is one this type cannot take (a monotributo customer on a B): said,
    // not silently replaced by the list's first.
    if (registered && !allowed.includes(registered))
      this.ctx.err(
        `${this.ctx.errColor.yellow(t("warning:"))} ${t("the registry says {condition}, which a {tipo} does not take (it takes {allowed}): the customer may need another type of voucher", { condition: registered, tipo: String(this.draft.comprobante.tipo), allowed: allowed.join(", ") })}`,
      );
    const conditionByDefault =
      registered && allowed.includes(registered) && !sameAsBefore
        ? registered
        : allowed.includes(old.condicion_iva as VatCondition)
          ? (old.condicion_iva as VatCondition)
          : undefined;
    const condicion_iva = await this.p.select({
      message: t("Customer's VAT condition"),
      choices: allowed.map((c) => ({ name: `${c} — ${VAT_CONDITION_NAMES[c]}`, value: c })),
      ...(conditionByDefault ? { default: conditionByDefault } : {}),
    });
    // The registry's address is offered for a CUIT typed anew; an address typed before is kept.
    const registryAddress = record && !old.domicilio ? addressOf(record) : "";
    this.draft.cliente = {
      ...pick(old, ["domicilio", "email", "condicion_pago", "condicion_pago_otra"]),
      ...(registryAddress ? { domicilio: registryAddress } : {}),
      documento_tipo,
      documento_nro,
      razon_social,
      condicion_iva,
      condicion_iva_operacion: condicion_iva,
    };
  }

  /** The VAT condition alone: a note from a voucher keeps the customer, whose condition the service does not say. */
  async condition(): Promise<void> {
    const allowed = VAT_CONDITIONS_BY_CLASS[this.cls];
    const condicion_iva = await this.p.select({
      message: t("Customer's VAT condition"),
      choices: allowed.map((c) => ({ name: `${c} — ${VAT_CONDITION_NAMES[c]}`, value: c })),
      default: this.draft.cliente.condicion_iva as VatCondition,
    });
    this.draft.cliente.condicion_iva = condicion_iva;
  }

  async address(): Promise<void> {
    const domicilio = (
      await this.p.input({
        message: t("Customer's address (optional)"),
        default: String(this.draft.cliente.domicilio ?? ""),
        validate: (v) => v.trim().length <= 255 || t("at most {max} characters", { max: 255 }),
      })
    ).trim();
    setOrDrop(this.draft.cliente, "domicilio", domicilio);
  }

  async email(): Promise<void> {
    const email = (
      await this.p.input({
        message: t("Customer's e-mail, to send the voucher to (optional)"),
        default: String(this.draft.cliente.email ?? ""),
        validate: (v) =>
          v.trim() === "" ||
          (this.problemAt(["cliente", "email"], (d) => {
            d.cliente.email = v.trim();
          }) ??
            true),
      })
    ).trim();
    setOrDrop(this.draft.cliente, "email", email);
    // An address alone sends nothing: the service e-mails only with envia_por_mail "S" (and only
    // then does `facturar resend` work later).
    if (email === "") {
      delete this.draft.cliente.envia_por_mail;
      return;
    }
    const send = await this.p.confirm({
      message: t("E-mail the voucher to {email} once issued?", { email }),
      default: this.draft.cliente.envia_por_mail !== "N",
    });
    this.draft.cliente.envia_por_mail = send ? "S" : "N";
  }

  /** The sale condition the PDF prints (Contado, 30 días…); its term sets the due date. */
  async saleCondition(): Promise<void> {
    const cliente = this.draft.cliente;
    const chosen = Number(cliente.condicion_pago);
    const condicion_pago = await this.p.select({
      message: t("Sale condition"),
      choices: Object.entries(PAYMENT_CONDITIONS).map(([code, name]) => ({ name, value: Number(code) })),
      default: chosen in PAYMENT_CONDITIONS ? chosen : PAYMENT_CONDITION_CASH,
    });
    cliente.condicion_pago = condicion_pago;
    if (condicion_pago === PAYMENT_CONDITION_OTHER) {
      cliente.condicion_pago_otra = (
        await this.p.input({
          message: t("Which sale condition?"),
          default: String(cliente.condicion_pago_otra ?? ""),
          validate: (v) =>
            v.trim() === ""
              ? t("required")
              : (this.problemAt(["cliente", "condicion_pago_otra"], (d) => {
                  d.cliente.condicion_pago_otra = v.trim();
                }) ?? true),
        })
      ).trim();
    } else delete cliente.condicion_pago_otra;
    // A date already asked (an answer sent back to) follows the new condition's term.
    const fecha = this.draft.comprobante.fecha;
    if (typeof fecha === "string") this.draft.comprobante.vencimiento = this.dueDate(fecha);
  }

  /** Item `i` (a new one at the end); a pre-filled item offers its values. Returns false when left out. */
  async item(i: number): Promise<boolean> {
    const old = this.draft.comprobante.detalle[i];
    const product = (old?.producto ?? {}) as Json;
    const limit = this.limits[i];
    let descripcion = String(product.descripcion ?? "");
    if (!limit)
      descripcion = (
        await this.p.input({
          message: t("Item {n}: description", { n: i + 1 }),
          ...(descripcion ? { default: descripcion } : {}),
          validate: (v) => v.trim().length >= 4 || t("at least 4 characters"),
        })
      ).trim();
    else this.ctx.err(t("Item {n}: {description}", { n: i + 1, description: descripcion }));
    const cantidad = asTyped(
      await this.p.input({
        message: limit ? t("Quantity (0 leaves the item out)") : t("Quantity"),
        default: asShown(old?.cantidad) ?? "1",
        validate: (v) => {
          const q = asTyped(v);
          if (limit && Number(q) === 0 && QUANTITY.test(q)) return true;
          if (!QUANTITY.test(q) || !(Number(q) > 0)) return t("a number above 0, up to 2 decimals");
          if (limit && Dec.parse(q).cmp(Dec.parse(limit.cantidad)) > 0)
            return t("at most {max}, what the voucher had", { max: asShown(limit.cantidad) ?? "" });
          return true;
        },
      }),
    );
    if (limit && Number(cantidad) === 0) {
      this.draft.comprobante.detalle.splice(i, 1);
      this.limits.splice(i, 1);
      return false;
    }
    const precio = asTyped(
      await this.p.input({
        message: this.chargesVat ? t("Unit price without VAT") : t("Unit price"),
        ...(product.precio_unitario_sin_iva !== undefined ? { default: asShown(product.precio_unitario_sin_iva) } : {}),
        validate: (v) => {
          const price = asTyped(v);
          if (!AMOUNT.test(price)) return t("a number such as 1500.50 (decimal point, up to 3 decimals)");
          if (limit && Dec.parse(price).cmp(Dec.parse(limit.precio)) > 0)
            return t("at most {max}, what the voucher had", { max: asShown(limit.precio) ?? "" });
          return true;
        },
      }),
    );
    const alicuota = limit
      ? String(product.alicuota)
      : this.chargesVat
        ? await this.p.select({
            message: t("VAT rate"),
            choices: rateChoices(),
            default: String(product.alicuota ?? "21"),
          })
        : "0";
    const item = {
      ...old,
      cantidad,
      producto: { ...product, descripcion, precio_unitario_sin_iva: precio, alicuota },
    };
    if (old) this.draft.comprobante.detalle[i] = item;
    else this.draft.comprobante.detalle.push(item);
    return true;
  }

  async items(): Promise<void> {
    const detalle = this.draft.comprobante.detalle;
    if (this.limits.length > 0) {
      // A note from a voucher: its items, each kept, lowered or left out (a partial credit).
      for (let i = 0; i < detalle.length; ) if (await this.item(i)) i++;
      return;
    }
    do await this.item(detalle.length);
    while (detalle.length < 130 && (await this.p.confirm({ message: t("Add another item?"), default: false })));
  }

  async date(): Promise<void> {
    const byDefault = String(this.draft.comprobante.fecha ?? formatDay(argentinaToday(this.now)));
    // An answer erased after an error is the default again.
    const fecha =
      (
        await this.p.input({
          message: t("Voucher date (dd/mm/yyyy)"),
          default: byDefault,
          validate: (v) =>
            this.problemAt(["comprobante", "fecha"], (d) => {
              d.comprobante.fecha = v.trim() || byDefault;
            }) ?? true,
        })
      ).trim() || byDefault;
    this.draft.comprobante.fecha = fecha;
    this.draft.comprobante.vencimiento = this.dueDate(fecha);
  }

  /** The due date files get too (validate's one rule): the sale condition's term, else the date. */
  private dueDate(fecha: string): string {
    return dueDateByDefault(String(this.draft.comprobante.tipo ?? ""), fecha, this.draft.cliente.condicion_pago)
      .vencimiento;
  }

  async reference(): Promise<void> {
    const c = this.draft.comprobante;
    const { external_reference: given, ...rest } = c;
    // The same voucher typed twice gets the same reference, and is not issued twice.
    const byDefault = given ? String(given) : readableReference({ ...this.draft, comprobante: rest });
    c.external_reference =
      (
        await this.p.input({
          message: t("Reference (external_reference)"),
          default: byDefault,
          validate: (v) =>
            this.problemAt(["comprobante", "external_reference"], (d) => {
              d.comprobante.external_reference = v.trim() || byDefault;
            }) ?? true,
        })
      ).trim() || byDefault;
  }

  async period(): Promise<void> {
    const fecha = dayNumber(String(this.draft.comprobante.fecha ?? formatDay(argentinaToday(this.now))));
    const old = (this.draft.comprobante.comprobantes_asociados_periodo ?? {}) as Json;
    const valid = (field: "fecha_desde" | "fecha_hasta") => (v: string) =>
      this.problemAt(["comprobante", "comprobantes_asociados_periodo", field], (d) => {
        d.comprobante.comprobantes_asociados_periodo = {
          fecha_desde: v.trim(),
          fecha_hasta: v.trim(),
          [field]: v.trim(),
        };
      }) ?? true;
    const fecha_desde = await this.p.input({
      message: t("Period the note adjusts: from (dd/mm/yyyy)"),
      default: String(old.fecha_desde ?? formatDay(fecha - 30)),
      validate: valid("fecha_desde"),
    });
    const fecha_hasta = await this.p.input({
      message: t("to (dd/mm/yyyy)"),
      default: String(old.fecha_hasta ?? formatDay(fecha)),
      validate: valid("fecha_hasta"),
    });
    this.draft.comprobante.comprobantes_asociados_periodo = {
      fecha_desde: fecha_desde.trim(),
      fecha_hasta: fecha_hasta.trim(),
    };
  }

  /** FCE notes: whether this one annuls the invoice (id 22). */
  async annulment(): Promise<void> {
    const rg = this.draft.comprobante.rg_especiales as { datos: { id: number; valor: string }[] } | undefined;
    const data = rg?.datos.find((d) => d.id === 22);
    if (!data) return;
    const annuls = await this.p.confirm({
      message: t("Does the note annul the invoice (rejected by the buyer)?"),
      default: data.valor === "S",
    });
    data.valor = annuls ? "S" : "N";
  }

  /** The prompt that answers a finding at `path`; undefined when no prompt can. */
  private route(f: Finding): (() => Promise<unknown>) | undefined {
    const [block, field, index] = f.path;
    if (f.code === "anonymous.ceiling") return () => this.customer(false);
    if (block === "cliente") {
      if (field === "email") return () => this.email();
      if (field === "domicilio") return () => this.address();
      if (field === "condicion_pago" || field === "condicion_pago_otra") return () => this.saleCondition();
      if (this.limits.length > 0 && (field === "condicion_iva" || field === "condicion_iva_operacion"))
        return () => this.condition();
      return this.limits.length > 0 ? undefined : () => this.customer();
    }
    if (block !== "comprobante") return undefined;
    switch (field) {
      case "fecha":
      case "vencimiento":
      case "comprobantes_asociados":
        return () => this.date();
      case "external_reference":
        return () => this.reference();
      case "comprobantes_asociados_periodo":
        return () => this.period();
      case "rg_especiales":
        return () => this.annulment();
      case "detalle":
        if (typeof index === "number" && index < this.draft.comprobante.detalle.length) return () => this.item(index);
        return undefined;
      default:
        return undefined;
    }
  }

  private async ceiling(): Promise<Dec> {
    this.ceilingAmount ??= await this.fetchCeiling();
    return this.ceilingAmount;
  }

  /**
   * The whole voucher through the rules; each error sends the user back to its field's prompt,
   * every other answer kept. Undefined when an error has no prompt (shown, nothing issued).
   */
  async settle(): Promise<ValidationResult | undefined> {
    for (let round = 0; ; round++) {
      delete this.draft.comprobante.total;
      const anonymous = this.draft.cliente.documento_tipo === "OTRO";
      const ceiling = anonymous ? await this.ceiling() : Dec.parse(DEFAULT_FINAL_CONSUMER_CEILING);
      const check = validateEnvelope(structuredClone(this.draft), ruleOptions({ ceiling, now: this.now }));
      const problems = check.findings.filter(blocking);
      const next = problems[0];
      if (!next && check.totals) {
        for (const f of check.findings.filter((x) => x.severity === "warning" && x.code !== "total.missing"))
          this.ctx.err(`${this.ctx.errColor.yellow(t("warning:"))} ${say(f.message)}`);
        this.draft.comprobante.total = check.totals.total.toFixed(2);
        return check;
      }
      const ask = next && round < MAX_ROUNDS ? this.route(next) : undefined;
      if (!ask) {
        for (const e of problems) this.ctx.err(`${this.ctx.errColor.red(t("error:"))} ${say(e.message)} [${e.code}]`);
        return undefined;
      }
      this.ctx.err(`${this.ctx.errColor.red(t("error:"))} ${say(next?.message ?? "")} [${next?.code}]`);
      await ask();
    }
  }

  /** A note from an issued voucher: pre-filled, the amounts to adjust, then the same checks. */
  async fromNote(note: BuiltNote): Promise<void> {
    this.limits = this.draft.comprobante.detalle.map((d) => ({
      cantidad: String(d.cantidad),
      precio: String((d.producto as Json).precio_unitario_sin_iva),
    }));
    // A debit note charges more: its amounts are not capped by the voucher's.
    if (this.info?.kind === "debit")
      this.limits = this.limits.map(() => ({ cantidad: "9999999999999", precio: "9999999999999" }));
    if (note.assumed.includes("condicion_iva")) await this.condition();
    await this.annulment();
    await this.address();
    await this.email();
    await this.items();
    await this.date();
    await this.reference();
  }
}

/** The registry's address as one line: `Av. Belgrano 1234, Rosario (2000), Santa Fe`; "" when it has none. */
function addressOf(record: RegistryRecord): string {
  const place = [record.localidad.trim(), record.codigopostal.trim() ? `(${record.codigopostal.trim()})` : ""]
    .filter(Boolean)
    .join(" ");
  // The City of Buenos Aires is both its locality and its province: named once.
  const province = record.provincia.trim() === record.localidad.trim() ? "" : record.provincia.trim();
  return [record.direccion.trim(), place, province].filter(Boolean).join(", ").slice(0, 255);
}

function pick(from: Json, keys: string[]): Json {
  return Object.fromEntries(keys.filter((k) => from[k] !== undefined).map((k) => [k, from[k]]));
}

function setOrDrop(block: Json, key: string, value: string): void {
  if (value === "") delete block[key];
  else block[key] = value;
}

export interface GuidedOptions {
  /** Start from the voucher the service holds under this reference: its credit or debit note. */
  fromRef?: string;
}

/** The voucher, asked for; returns the envelope to issue (and where it was saved, if it was). */
export async function askVoucher(
  ctx: Context,
  opts: GuidedOptions = {},
): Promise<{ envelope: Record<string, unknown>; saved?: string } | undefined> {
  const p = await prompts(ctx);
  const now = clockFrom(ctx.io.env)();
  const today = formatDay(argentinaToday(now));
  // The voucher-level fields the rules need from the first prompt on; the date is asked later.
  const draft: Draft = {
    cliente: {},
    comprobante: {
      fecha: today,
      vencimiento: today,
      rubro: "Ventas",
      rubro_grupo_contable: "Ventas",
      detalle: [],
    },
  };
  const fetchCeiling = () => liveCeiling(ctx);
  const lookupCuit = registryLookup(ctx);
  let guide = new Guide(ctx, p, draft, fetchCeiling, lookupCuit);

  if (opts.fromRef !== undefined) {
    const { fetchIssued } = await import("./from-ref.js");
    const found = await fetchIssued(ctx, opts.fromRef);
    ctx.err(
      t("{tipo} {number} of {fecha} to {name} ({document}), total {total}", {
        tipo: ctx.errColor.bold(found.tipo),
        number: `${String(found.punto_venta).padStart(5, "0")}-${String(found.numero).padStart(8, "0")}`,
        fecha: String(found.fecha),
        name: String(found.raw.cliente?.razon_social ?? ""),
        document: `${found.raw.cliente?.documento_tipo ?? ""} ${found.raw.cliente?.documento_nro ?? ""}`,
        total: amountText(String(found.total)),
      }),
    );
    // A note is undone by the opposite note; an invoice takes either.
    const sourceKind = voucherTypeInfo(String(found.tipo))?.kind;
    const kind: NoteKind =
      sourceKind === "credit"
        ? "debit"
        : sourceKind === "debit"
          ? "credit"
          : await p.select<NoteKind>({
              message: t("Which note?"),
              choices: [
                { name: t("credit note"), value: "credit" },
                { name: t("debit note"), value: "debit" },
              ],
              default: "credit",
            });
    let note = noteFromVoucher(found.raw, { kind, fecha: today });
    // Asked before any question: a second run must not walk every prompt to learn the note exists.
    // The latest note of the voucher is the one to make (the issue path settles one in flight);
    // once issued, another is made only when asked for.
    const { latestNote } = await import("./from-ref.js");
    const { withConnection } = await import("./online.js");
    const latest = await withConnection(ctx, (connection) => latestNote(connection.service, note.source, kind));
    if (latest.note?.state === "issued") {
      ctx.err(
        t("{ref} is issued already: {tipo} {number}", {
          ref: latest.note.external_reference,
          tipo: latest.note.tipo,
          number: `${String(latest.note.punto_venta).padStart(5, "0")}-${String(latest.note.numero).padStart(8, "0")}`,
        }),
      );
      // Declined: nothing to do, and nothing went wrong.
      if (!(await p.confirm({ message: t("Make another note of this voucher?"), default: false })))
        return { envelope: {} };
      note = noteFromVoucher(found.raw, { kind, fecha: today, sequence: latest.sequence + 1 });
    } else if (latest.sequence > 1)
      note = noteFromVoucher(found.raw, { kind, fecha: today, sequence: latest.sequence });
    const built = structuredClone(note.envelope) as Draft;
    guide = new Guide(ctx, p, built, fetchCeiling, lookupCuit);
    ctx.err(
      t("{tipo} from it: lower a quantity or a price for a partial one", {
        tipo: ctx.errColor.bold(String(built.comprobante.tipo)),
      }),
    );
    await guide.fromNote(note);
  } else {
    await guide.type();
    await guide.customer();
    await guide.address();
    await guide.email();
    await guide.saleCondition();
    await guide.items();
    await guide.date();
    if (guide.info && (guide.info.kind === "credit" || guide.info.kind === "debit")) await guide.period();
    await guide.reference();
  }

  const check = await guide.settle();
  if (!check?.totals) return undefined;
  const envelope = guide.draft;
  const { cliente, comprobante } = envelope;
  const tipo = String(comprobante.tipo);
  ctx.err("");
  ctx.err(
    tn(
      comprobante.detalle.length,
      "{type} to {name} ({document}), {n} item",
      "{type} to {name} ({document}), {n} items",
      {
        type: ctx.errColor.bold(tipo),
        name: String(cliente.razon_social),
        document: `${cliente.documento_tipo} ${cliente.documento_nro}`,
        n: comprobante.detalle.length,
      },
    ),
  );
  ctx.err(`  ${say(describeTotals(check.totals))}`);
  ctx.err(`  ${t("total")} ${ctx.errColor.bold(amountText(String(comprobante.total)))}`);
  if (!(await p.confirm({ message: t("Issue it?"), default: true }))) return { envelope: {} };
  let saved: string | undefined;
  if (await p.confirm({ message: t("Save it as a JSON file for next time?"), default: false })) {
    const name = await p.input({
      message: t("File"),
      default: `${tipo.replace(/\s+/g, "_").toLowerCase()}-${String(comprobante.fecha).split("/").reverse().join("")}.json`,
    });
    saved = resolve(name);
    writeFileSync(saved, `${JSON.stringify(envelope, null, 2)}\n`);
    ctx.err(t("saved to {path}", { path: saved }));
  }
  return { envelope, ...(saved ? { saved } : {}) };
}

/** The service's ceiling for unidentified consumers (cached for the day), asked once the sale needs it. */
/**
 * The registry's record of a CUIT (clientes/afip-info, one request of the quota), each CUIT asked
 * once; undefined when the lookup fails for any reason: the guide then just asks, as without it.
 */
function registryLookup(ctx: Context): (cuit: string) => Promise<RegistryRecord | undefined> {
  const asked = new Map<string, Promise<RegistryRecord | undefined>>();
  return (cuit) => {
    let answer = asked.get(cuit);
    if (!answer) {
      answer = (async () => {
        try {
          const { withConnection } = await import("./online.js");
          return await withConnection(ctx, (connection) => connection.service.registry(cuit));
        } catch (error) {
          if (ctx.verbose)
            ctx.err(ctx.errColor.dim(t("registry lookup failed: {message}", { message: textOf(error) })));
          return undefined;
        }
      })();
      asked.set(cuit, answer);
    }
    return answer;
  };
}

async function liveCeiling(ctx: Context): Promise<Dec> {
  const [{ withConnection }, { currentCeiling }] = await Promise.all([
    import("./online.js"),
    import("../batch/ceiling.js"),
  ]);
  return withConnection(ctx, (connection) =>
    currentCeiling(connection.service, stateDir(ctx.io.env), accountId(connection.account), (line) =>
      ctx.err(`${ctx.errColor.yellow(t("warning:"))} ${say(line)}`),
    ),
  );
}

/**
 * What to issue: the saved file, or the voucher itself from memory (nothing with the customer's
 * data is left behind in a temporary folder).
 */
export function voucherInput(answer: { envelope: Record<string, unknown>; saved?: string }): {
  files: string[];
  sources: SourceVoucher[];
} {
  if (answer.saved) return { files: [answer.saved], sources: [] };
  return {
    files: [],
    sources: [
      {
        file: "guided",
        index: 0,
        raw: answer.envelope,
        readerFindings: [],
        label: "guided",
        place: (path) => `guided: ${path.join(".")}`,
      },
    ],
  };
}

export function requireTerminal(ctx: Context): void {
  if (!ctx.interactive)
    throw new UsageError(
      t("--interactive asks on a terminal; without one, give voucher files (facturar template shows one)"),
    );
}
