/** `facturar journal`: what the journal holds for a profile (or for some input files), unknown outcomes first. */

import { existsSync } from "node:fs";
import { findSaleOrPurchase, preferred } from "../api/protocol.js";
import { entryFromService, inFlight, Journal, type JournalEntry, sinceSent } from "../batch/journal.js";
import { stateDir } from "../config/paths.js";
import { loadProfile } from "../config/profile.js";
import type { Context } from "../context.js";
import { FacturarError, type Outcome, UsageError } from "../errors.js";
import { t, tn } from "../i18n/index.js";
import { msg } from "../i18n/message.js";
import { jsonText } from "../output/json.js";
import { visible } from "../output/visible.js";
import { stateWord } from "../output/voucher.js";
import { accountOf } from "../session/connect.js";
import { voucherNumber } from "../voucher/codes.js";
import type { JournalOptions } from "./journal.command.js";
import { withConnection } from "./online.js";

const ORDER: Record<JournalEntry["state"], number> = {
  unknown: 0,
  sending: 1,
  "queue-error": 2,
  queued: 3,
  held: 4,
  rejected: 5,
  deleted: 6,
  issued: 7,
};

function matches(entry: JournalEntry, files: string[]): boolean {
  return (
    files.length === 0 ||
    files.some((f) => entry.source === f || entry.source?.startsWith(`${f}:`) || entry.source?.startsWith(`${f}[`))
  );
}

function number(entry: JournalEntry): string {
  if (entry.comprobante_nro) return entry.comprobante_nro;
  return entry.punto_venta && entry.numero ? voucherNumber(entry.punto_venta, entry.numero) : "";
}

/** A journal time (UTC, ISO) as a person in Argentina reads it: dd/mm/yyyy hh:mm:ss, UTC−3 (no daylight saving). */
function argentinaTime(iso: string): string {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return iso;
  const local = new Date(ms - 3 * 3_600_000).toISOString();
  return `${local.slice(8, 10)}/${local.slice(5, 7)}/${local.slice(0, 4)} ${local.slice(11, 19)}`;
}

/**
 * An entry as a voucher result (schema/output.schema.json): the names issue uses
 * (`external_reference`, `comprobante_tipo`, `status`), then what only the journal keeps.
 */
function entryJson(e: JournalEntry): Record<string, unknown> {
  const { ref, state, tipo, errors, ...rest } = e;
  return {
    ok: state === "issued" || state === "queued" || state === "deleted",
    status: state,
    external_reference: ref,
    comprobante_tipo: tipo ?? null,
    punto_venta: e.punto_venta ?? null,
    numero: e.numero ?? null,
    comprobante_nro: e.comprobante_nro ?? null,
    cae: e.cae ?? null,
    vencimiento_cae: e.vencimiento_cae ?? null,
    vencimiento_pago: e.vencimiento_pago ?? null,
    pdf: e.pdf ?? null,
    ticket: e.ticket ?? null,
    errors: errors ?? [],
    error_details: (errors ?? []).map((text) => ({ code: `journal.${state}`, text })),
    ...rest,
  };
}

export async function journalCommand(ctx: Context, files: string[], flags: JournalOptions): Promise<Outcome> {
  const { ref } = flags;
  const profileRequest = {
    ...(ctx.profile ? { profile: ctx.profile } : {}),
    ...(ctx.configPath ? { config: ctx.configPath } : {}),
    env: ctx.io.env,
  };
  const profile = await loadProfile(profileRequest);
  const account = await accountOf(profile, ctx.io.env);
  // A file named that is not there, and that the journal read nothing from, is a mistake (a typo
  // most often): said, exit 2. One deleted since its vouchers were sent still shows them.
  const unknownFile = (entries: JournalEntry[]) =>
    files.find((f) => !existsSync(f) && !entries.some((e) => matches(e, [f])));
  if (!account) {
    const missing = unknownFile([]);
    if (missing)
      throw new UsageError(t("{file}: no such file, and the journal holds nothing read from it", { file: missing }));
    ctx.err(t("profile {name} has issued nothing yet: no journal", { name: profile.name }));
    return "done";
  }
  // Reading needs no lock; settling entries does (a running batch owns them).
  const journal = await Journal.open(stateDir(ctx.io.env), account, {
    lock: flags.reconcile ?? false,
    readOnly: !flags.reconcile,
    profile: profile.name,
  });
  try {
    if (flags.reconcile) {
      // Everything the journal cannot settle alone is asked of the service, which decides.
      const open = journal.all().filter((e) => e.state !== "issued" && e.state !== "deleted" && matches(e, files));
      await withConnection(ctx, async (connection) => {
        for (const entry of open) {
          // The journal does not keep whether a reference is a sale or a purchase: sales first.
          const found = preferred(await findSaleOrPurchase(connection.service, entry.ref));
          if (found) {
            await journal.record(entryFromService(found, entry.mode));
            continue;
          }
          const elapsed = sinceSent(entry);
          if (inFlight(entry) && elapsed < connection.settleWindowMs) {
            ctx.err(
              t("{ref}: sent {seconds} s ago and not at the service yet; it may still be storing it: ask again later", {
                ref: entry.ref,
                seconds: Math.round(elapsed / 1000),
              }),
            );
            continue;
          }
          if (entry.state === "queued" || entry.state === "queue-error") {
            await journal.record({ ref: entry.ref, state: "deleted", mode: entry.mode });
            ctx.err(t("{ref}: no longer in the service's queue; the next issue run will send it", { ref: entry.ref }));
          } else if (entry.state !== "rejected" && entry.state !== "held") {
            await journal.record({
              ref: entry.ref,
              state: "held",
              mode: entry.mode,
              // Data, said in the language of whoever reads the journal later.
              errors: [msg("not at the service")],
            });
            ctx.err(
              t("{ref}: the service has no voucher under it; the next issue run will send it", { ref: entry.ref }),
            );
          }
        }
      });
    }
    const entries = journal
      .all()
      .filter((e) => matches(e, files) && (ref === undefined || e.ref === ref))
      .sort((a, b) => ORDER[a.state] - ORDER[b.state] || (a.at < b.at ? 1 : -1));
    const missing = unknownFile(entries);
    if (missing)
      throw new UsageError(t("{file}: no such file, and the journal holds nothing read from it", { file: missing }));
    if (ref !== undefined && entries.length === 0)
      throw new FacturarError(
        t("the journal holds nothing under {ref}", { ref }),
        "notFound",
        "journal.not-found",
        t("the service may hold it still: facturar query --ref {ref}", { ref }),
      );
    if (ctx.json) {
      for (const e of entries) await ctx.out(jsonText(entryJson(e)));
    } else if (entries.length === 0) {
      ctx.err(
        files.length
          ? t("the journal of profile {name} holds nothing for those files ({path})", {
              name: profile.name,
              path: journal.path,
            })
          : t("the journal of profile {name} holds nothing ({path})", { name: profile.name, path: journal.path }),
      );
    } else {
      const c = ctx.color;
      const paint: Record<JournalEntry["state"], (s: string) => string> = {
        unknown: c.yellow,
        sending: c.yellow,
        "queue-error": c.red,
        queued: c.cyan,
        held: c.dim,
        rejected: c.red,
        deleted: c.dim,
        issued: c.green,
      };
      const states = Object.fromEntries(
        (Object.keys(ORDER) as JournalEntry["state"][]).map((s) => [s, stateWord(s)]),
      ) as Record<JournalEntry["state"], string>;
      const head = [t("state"), t("reference"), t("type"), t("number"), t("time (Argentina)"), t("source")];
      const cells = (e: JournalEntry) => [
        // What the journal quotes (references, file names, words) is shown, never obeyed.
        states[e.state],
        visible(e.ref),
        visible(e.tipo ?? ""),
        number(e),
        argentinaTime(e.at),
        visible(e.source ?? ""),
      ];
      const widths = head.map((h, i) => Math.max(h.length, ...entries.map((e) => (cells(e)[i] ?? "").length)));
      const line = (row: string[], state?: JournalEntry["state"]) =>
        row
          .map((cell, i) => {
            const padded = cell.padEnd(widths[i] ?? 0);
            return i === 0 && state ? paint[state](padded) : padded;
          })
          .join("  ")
          .trimEnd();
      await ctx.out(c.dim(line(head)));
      for (const e of entries) {
        await ctx.out(line(cells(e), e.state));
        for (const error of e.state === "rejected" || e.state === "unknown" || e.state === "queue-error"
          ? (e.errors ?? [])
          : [])
          await ctx.out(`          ${c.dim(visible(error))}`);
        if (e.state === "issued")
          for (const observation of e.observations ?? [])
            await ctx.out(`          ${c.yellow(`${t("observed by the authority:")} ${visible(observation)}`)}`);
        if (e.state === "issued" && e.documents_missing)
          await ctx.out(`          ${c.yellow(t("documents not saved yet: the next issue run fetches them"))}`);
      }
      const open = entries.filter((e) => e.state === "unknown" || e.state === "sending").length;
      ctx.err(
        `${tn(entries.length, "{n} entry in {path}", "{n} entries in {path}", { path: journal.path })}${open ? `; ${t("{n} with an unknown outcome: facturar journal --reconcile", { n: open })}` : ""}`,
      );
    }
    return entries.some((e) => e.state === "unknown" || e.state === "sending") ? "unknown" : "done";
  } finally {
    await journal.close();
  }
}
