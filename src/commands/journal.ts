/** `facturar journal`: what the journal holds for a profile (or for some input files), unknown outcomes first. */

import { lookup } from "../batch/issue.js";
import { Journal, type JournalEntry } from "../batch/journal.js";
import { stateDir } from "../config/paths.js";
import { loadProfile } from "../config/profile.js";
import type { Context } from "../context.js";
import type { Outcome } from "../errors.js";
import { t, tn } from "../i18n/index.js";
import { voucherNumber } from "../voucher/codes.js";
import { withConnection } from "./online.js";

const ORDER: Record<JournalEntry["state"], number> = {
  unknown: 0,
  sending: 1,
  queued: 2,
  held: 3,
  rejected: 4,
  issued: 5,
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

export async function journalCommand(ctx: Context, files: string[], flags: { reconcile?: boolean }): Promise<Outcome> {
  const profileRequest = {
    ...(ctx.profile ? { profile: ctx.profile } : {}),
    ...(ctx.configPath ? { config: ctx.configPath } : {}),
    env: ctx.io.env,
  };
  const profile = await loadProfile(profileRequest);
  // Reading needs no lock; settling entries does (a running batch owns them).
  const journal = await Journal.open(stateDir(ctx.io.env), profile.name, { lock: flags.reconcile ?? false });
  try {
    if (flags.reconcile) {
      const open = journal
        .all()
        .filter((e) => (e.state === "sending" || e.state === "unknown" || e.state === "queued") && matches(e, files));
      await withConnection(ctx, async (connection) => {
        for (const entry of open) {
          const found = await lookup(connection.client, entry.ref);
          const c = found?.comprobante;
          if (!c) {
            if (entry.state !== "queued")
              ctx.err(
                t("{ref}: the service has no voucher under it; the next issue run will send it", { ref: entry.ref }),
              );
            continue;
          }
          const status = String(c.status ?? "");
          if (status === "EMITIDO") {
            await journal.record({
              ref: entry.ref,
              state: "issued",
              mode: entry.mode,
              punto_venta: Number(c.punto_venta),
              numero: Number(c.numero),
              tipo: c.tipo,
            });
          } else if (status.includes("CON ERROR")) {
            await journal.record({
              ref: entry.ref,
              state: "rejected",
              mode: entry.mode,
              errors: Array.isArray(c.errores) ? c.errores : [status],
            });
          } else {
            await journal.record({ ref: entry.ref, state: "queued", mode: "queued" });
          }
        }
      });
    }
    const entries = journal
      .all()
      .filter((e) => matches(e, files))
      .sort((a, b) => ORDER[a.state] - ORDER[b.state] || (a.at < b.at ? 1 : -1));
    if (ctx.json) {
      for (const e of entries) await ctx.out(JSON.stringify(e));
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
      const paint = {
        unknown: c.yellow,
        sending: c.yellow,
        queued: c.cyan,
        held: c.dim,
        rejected: c.red,
        issued: c.green,
      };
      const states: Record<JournalEntry["state"], string> = {
        unknown: t("unknown"),
        sending: t("sending"),
        queued: t("queued"),
        held: t("held"),
        rejected: t("rejected"),
        issued: t("issued"),
      };
      const width = Math.max(...Object.values(states).map((s) => s.length));
      for (const e of entries) {
        await ctx.out(
          `${paint[e.state](states[e.state].padEnd(width))}  ${e.ref.padEnd(28)}  ${(e.tipo ?? "").padEnd(18)}  ${number(e).padEnd(14)}  ${e.at}  ${e.source ?? ""}`.trimEnd(),
        );
        for (const error of e.state === "rejected" || e.state === "unknown" ? (e.errors ?? []) : [])
          await ctx.out(`          ${c.dim(error)}`);
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
