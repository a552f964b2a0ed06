/** `facturar issue` and `facturar issue-queued`: validate, then send each voucher exactly once. */

import { accessSync, constants } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import type { VoucherHeading } from "../batch/issue.js";
import type { VoucherResult } from "../batch/result.js";
import { type IssueSummary, issueFiles } from "../batch/run.js";
import type { Profile } from "../config/profile.js";
import type { Context } from "../context.js";
import { tryFolder, writeSafely } from "../durable/files.js";
import { type Outcome, textOf, UsageError } from "../errors.js";
import { currentLang, say, t, tn } from "../i18n/index.js";
import type { Text } from "../i18n/message.js";
import { inputDelimiter, inputSize } from "../input/read.js";
import type { SourceVoucher } from "../input/source.js";
import { amountText } from "../output/amounts.js";
import { sheetFormat } from "../output/csv.js";
import { jsonText } from "../output/json.js";
import { Progress } from "../output/progress.js";
import { Report } from "../output/report.js";
import { checkQrIsNoInput, checkReportIsNoInput, checkWritableFolderTree } from "../output/targets.js";
import { visible, visibleLines } from "../output/visible.js";
import { resultHuman, resultJson } from "../output/voucher.js";
import { connect } from "../session/connect.js";
import { Dec } from "../voucher/decimal.js";
import type { IssueOptions } from "./issue.command.js";
import type { IssueQueuedOptions } from "./issue-queued.command.js";
import { prompts } from "./prompts.js";
import { shellWord } from "./shell-word.js";
import { readOptions } from "./validate.js";

/** What issue, issue-queued and the note commands give issueVouchers: their options, read. */
export type IssueFlags = Partial<IssueOptions & IssueQueuedOptions>;

function summaryOutcome(s: IssueSummary): Outcome {
  if (s.interrupted) return "interrupted";
  // Without --skip-invalid nothing was sent; with it, the valid ones were: partly done.
  if (s.invalid > 0 && !s.skippedInvalid) return "invalid";
  if (s.invalid > 0 && s.unknown === 0 && !s.stoppedBy) return "partial";
  if (s.unknown > 0) return "unknown";
  // The service stopped the run: its own code (access denied 5, unavailable 6) tells cron why.
  if (s.stoppedBy) return s.stoppedBy.outcome;
  // Queued, but how they end could not be asked: the service's failure, not a success.
  if (s.unfollowed) return s.unfollowed.outcome;
  const done = s.issued + s.queued + s.skipped;
  // A reference used before for another voucher: that sale is not invoiced, and a cron job must see it.
  if (s.conflicts > 0 && s.rejected === 0 && s.held === 0) return done > 0 ? "partial" : "invalid";
  if (s.rejected > 0 || s.held > 0 || s.conflicts > 0) return done > 0 || s.held > 0 ? "partial" : "rejected";
  // Issued, but a PDF or ticket is missing: the fiscal part is done, the documents are not.
  if (s.documentsMissing > 0) return "partial";
  return "done";
}

async function writeQr(ctx: Context, target: string, result: VoucherResult, several: boolean): Promise<void> {
  if (!result.qr) return;
  const QRCode = (await import("qrcode")).default;
  if (target === "terminal") {
    if (ctx.json) return;
    await ctx.out(await QRCode.toString(result.qr, { type: "terminal", small: true }));
    return;
  }
  const png = await QRCode.toBuffer(result.qr, { type: "png", margin: 2, width: 320 });
  const base = target.replace(/\.png$/i, "");
  const name = several && result.comprobante_nro ? `${base}-${result.comprobante_nro}.png` : `${base}.png`;
  const full = resolve(name);
  const path = await writeSafely(dirname(full), basename(full), png);
  ctx.err(t("QR written to {path}", { path }));
}

/** The folder a file flag writes into exists and can be written, or the run does not start. */
function checkWritableFolder(target: string, flag: string): void {
  const folder = dirname(resolve(target));
  try {
    accessSync(folder, constants.W_OK);
  } catch (error) {
    throw new UsageError(
      t("{flag} {path}: its folder cannot be written ({message})", {
        flag,
        path: target,
        message: (error as NodeJS.ErrnoException).code ?? (error as Error).message,
      }),
    );
  }
}

async function confirmProduction(ctx: Context, profile: Profile, vouchers: VoucherHeading[]): Promise<boolean> {
  if (!profile.production) return true;
  const total = Dec.sum(vouchers.map((v) => Dec.tryParse(v.total ?? "0") ?? Dec.ZERO));
  const points = [...new Set(vouchers.map((v) => v.punto_venta))].join(", ");
  ctx.err(
    ctx.errColor.bold.red(
      t("PRODUCTION profile {name}: these vouchers are real and cannot be deleted.", { name: profile.name }),
    ),
  );
  ctx.err(
    `  ${tn(vouchers.length, "point of sale {points}; {n} voucher; total {total}", "point of sale {points}; {n} vouchers; total {total}", { points, total: amountText(total) })}`,
  );
  const p = await prompts(ctx);
  return p.confirm({
    message: tn(vouchers.length, "Issue it?", "Issue all {n}?"),
    default: false,
  });
}

function issueCommand(mode: "instant" | "queued") {
  return async (ctx: Context, given: string[], flags: IssueFlags): Promise<Outcome> => {
    let files = given;
    let sources: SourceVoucher[] = [];
    // --from-ref R asks too: the note of the voucher R, pre-filled, its amounts to adjust.
    if (flags.interactive || flags.fromRef !== undefined) {
      if (files.length > 0) throw new UsageError(t("--interactive asks for one voucher; it takes no files"));
      const guided = await import("./guided.js");
      guided.requireTerminal(ctx);
      const answer = await guided.askVoucher(ctx, flags.fromRef ? { fromRef: flags.fromRef.trim() } : {});
      if (!answer) return "invalid";
      if (Object.keys(answer.envelope).length === 0) {
        ctx.err(t("nothing sent"));
        return "done";
      }
      ({ files, sources } = guided.voucherInput(answer));
    } else if (files.length === 0) {
      throw new UsageError(
        mode === "instant"
          ? t("give the voucher files to issue (.json, .csv, or - for standard input), or --interactive")
          : t("give the voucher files to issue (.json, .csv, or - for standard input)"),
      );
    }
    return issueVouchers(ctx, mode, files, sources, flags);
  };
}

/**
 * The vouchers of `files` and `sources` validated, then each sent exactly once, with the results
 * told as they settle: what `issue`, `issue --from-ref` and the note commands share.
 * `settled` may reword a result before it is told (a note's own hint).
 */
export async function issueVouchers(
  ctx: Context,
  mode: "instant" | "queued",
  files: string[],
  sources: SourceVoucher[],
  flags: IssueFlags,
  settled: (result: VoucherResult) => VoucherResult = (result) => result,
): Promise<Outcome> {
  const read = readOptions(ctx, flags);
  if (files.filter((f) => f === "-").length > 1) throw new UsageError(t("standard input (-) can be read only once"));
  const timeout = flags.timeout ?? 300;
  const { batchSize, concurrency, rate: rateMs } = flags;
  // Paths known up front are checked before anything is sent.
  if (flags.qr && flags.qr !== "terminal") {
    checkQrIsNoInput(flags.qr, files);
    checkWritableFolder(flags.qr, "--qr");
  }
  if (flags.report) checkReportIsNoInput(flags.report, files);
  if (flags.out && flags.pdf !== false) {
    checkWritableFolderTree(flags.out, "--out");
    // Access rights say yes to root anywhere: the folder is made and a file tried in it.
    await tryFolder(flags.out).catch((error: NodeJS.ErrnoException) => {
      const why = t("it cannot be written ({code})", { code: error.code ?? error.message });
      throw new UsageError(t("{flag} {path}: {why}", { flag: "--out", path: flags.out, why }));
    });
  }
  let report: Report | undefined;
  if (flags.report) {
    // An input that cannot be read is told before the report is written: last night's report
    // is not replaced by a header alone.
    for (const file of files) if (file !== "-") await inputSize(file);
    // As the input wrote its CSV; else, a spreadsheet's in Spanish, or plain CSV.
    const follow = await inputDelimiter(files, read);
    report = Report.create(
      flags.report,
      sheetFormat(
        {
          ...(read.delimiter ? { delimiter: read.delimiter } : {}),
          ...(read.decimalComma !== undefined ? { decimal: read.decimalComma ? "comma" : "point" } : {}),
        },
        currentLang() === "es",
        follow,
      ),
    );
  }
  const cwd = process.cwd();
  let results = 0;
  const hintsSaid = new Set<string>();
  /**
   * Why vouchers were not sent, said once: a refused run's hundreds of valid vouchers, or a
   * stopped run's, are told a line each, and the reason once (JSON keeps it on every result).
   */
  const whySaid = new Set<string>();
  const toldOnce = (r: VoucherResult): VoucherResult => {
    if (r.status !== "held" || r.errors.length === 0 || r.error_details.length > 0) return r;
    const again = r.errors.every((e) => whySaid.has(say(e)));
    for (const e of r.errors) whySaid.add(say(e));
    return again ? { ...r, errors: [] } : r;
  };
  /** Issued vouchers whose --qr file could not be written: done fiscally, not wholly (exit 7). */
  let qrMissing = 0;
  /** Still queued when --wait gave up (--timeout): not issued yet, no PDF (exit 7, like a missing one). */
  let stillQueued = 0;
  let progress: Progress | undefined;
  ctx.stop.graceful = true;
  void ctx.stop.requestedPromise.then(() =>
    ctx.err(t("stopping: the vouchers in flight settle, nothing new is sent (again to stop at once)")),
  );
  const summary = await issueFiles(
    {
      files,
      sources,
      read,
      validate: flags.validate !== false,
      mode,
      allowDuplicate: flags.allowDuplicate ?? false,
      skipInvalid: flags.skipInvalid ?? false,
      savePdf: flags.pdf !== false,
      ...(flags.out ? { outDir: flags.out } : {}),
      wait: flags.wait ?? false,
      waitTimeoutMs: timeout * 1000,
      requeue: flags.requeue ?? false,
      ...(batchSize !== undefined ? { batchSize } : {}),
      ...(concurrency ? { concurrency } : {}),
      ...(rateMs !== undefined ? { rateMs } : {}),
      stop: ctx.stop,
      // A production profile asks first, on a terminal only (--yes skips; without one it never asks).
      ...(ctx.interactive && !ctx.yes
        ? { confirm: (profile, vouchers) => confirmProduction(ctx, profile, vouchers) }
        : {}),
      onStart: (total: number) => {
        // A bar only for people watching a batch: never off a terminal, under --json or --quiet.
        if (total > 1 && ctx.io.stderrIsTTY && !ctx.json && !ctx.quiet) progress = new Progress(ctx.io.stderr, total);
      },
      profile: {
        ...(ctx.profile ? { profile: ctx.profile } : {}),
        ...(ctx.configPath ? { config: ctx.configPath } : {}),
        env: ctx.io.env,
        cwd,
      },
      connect,
      env: ctx.io.env,
      cwd,
      ...(ctx.verbose ? { log: (line: Text) => ctx.err(ctx.errColor.dim(say(line))) } : {}),
      warn: (line) => {
        if (!ctx.quiet) ctx.err(`${ctx.errColor.yellow(t("warning:"))} ${visibleLines(line)}`);
      },
    },
    async (given) => {
      const result = settled(given);
      results++;
      // Not what --wait was asked for (settle() told it not ok): counted for the exit code.
      if (flags.wait && result.status === "queued") stillQueued++;
      // A QR file is part of the voucher's result: written before it is told, its failure among its warnings.
      if (flags.qr && flags.qr !== "terminal" && (result.status === "issued" || result.status === "skipped-duplicate"))
        await writeQr(ctx, flags.qr, result, files.length > 1 || results > 1).catch((error: Error) => {
          qrMissing++;
          result.warnings = [...(result.warnings ?? []), t("QR not written: {message}", { message: textOf(error) })];
        });
      if (report && !report.failure && !report.write(result))
        ctx.err(
          `${ctx.errColor.yellow(t("warning:"))} ${t("the report {path} cannot take more rows ({message}); the run goes on", { path: report.path, message: report.failure === undefined ? "" : textOf(report.failure) })}`,
        );
      progress?.tick(result);
      if (ctx.json) {
        await ctx.out(jsonText(resultJson(result)));
        // What went wrong is told on stderr as well, for the log a person reads (`2>>cron.log`).
        if (!result.ok) ctx.err(resultHuman(toldOnce(result), ctx.errColor, undefined).join("\n"));
      } else if (!ctx.quiet || !result.ok) {
        // One write per voucher: lanes run at once, and a voucher's lines must stay together.
        // Results always go to stdout; on the terminal the bar is drawn on, above the bar.
        // Paths relative to the working folder on a terminal; whole ones for a script reading them.
        // A hint said once is not said again for the next voucher (a run again of a 100-voucher
        // file: one "already issued" hint, not a hundred); JSON keeps it on every result.
        const repeated = result.hint !== undefined && hintsSaid.has(say(result.hint));
        if (result.hint !== undefined) hintsSaid.add(say(result.hint));
        const shown = toldOnce(repeated ? { ...result, hint: undefined } : result);
        const text = resultHuman(shown, ctx.color, ctx.io.stdoutIsTTY ? cwd : undefined).join("\n");
        if (progress && ctx.io.stdoutIsTTY) await progress.above(() => ctx.out(text));
        else await ctx.out(text);
      }
      if (flags.qr === "terminal" && (result.status === "issued" || result.status === "skipped-duplicate"))
        await writeQr(ctx, flags.qr, result, files.length > 1 || results > 1).catch((error: Error) =>
          ctx.err(
            `${ctx.errColor.yellow(t("warning:"))} ${t("QR of {ref} not written: {message}", { ref: visible(result.external_reference), message: visibleLines(textOf(error)) })}`,
          ),
        );
    },
  );
  progress?.stop();
  report?.sync();
  // The summary is for people, on stderr, under --json as well (stdout holds the results alone).
  if (!ctx.quiet) {
    const parts = [
      summary.invalid &&
        (summary.skippedInvalid
          ? t("{n} invalid (skipped)", { n: summary.invalid })
          : summary.validNotSent
            ? t("{n} invalid, so nothing sent: {valid} valid not sent either (--skip-invalid sends them)", {
                n: summary.invalid,
                valid: summary.validNotSent,
              })
            : t("{n} invalid (nothing sent)", { n: summary.invalid })),
      summary.issued && t("{n} issued", { n: summary.issued }),
      summary.queued && t("{n} queued", { n: summary.queued }),
      summary.skipped && t("{n} already issued", { n: summary.skipped }),
      summary.rejected && t("{n} rejected", { n: summary.rejected }),
      summary.unknown && t("{n} unknown", { n: summary.unknown }),
      summary.held && t("{n} not sent", { n: summary.held }),
      summary.conflicts &&
        t("{n} not sent: their reference was used before for another voucher", { n: summary.conflicts }),
      summary.documentsMissing &&
        t("{n} without their documents (the next run fetches them)", { n: summary.documentsMissing }),
      summary.interrupted && t("interrupted"),
      summary.cancelled && t("cancelled, nothing sent"),
    ].filter(Boolean);
    ctx.err(parts.join(", ") || t("nothing to do"));
  }
  if (summary.stoppedBy) {
    const e = summary.stoppedBy;
    // A message may quote a file's name or a reference: shown, not obeyed.
    ctx.err(
      `${ctx.errColor.red(t("stopped:"))} ${visibleLines(textOf(e))}${e.hint ? `\n  ${t("hint:")} ${visibleLines(e.hint)}` : ""}`,
    );
  }
  if (summary.unfollowed) {
    const command = ["facturar", ...(ctx.profile ? ["--profile", ctx.profile] : []), "issue-queued", "--wait", ...files]
      .map(shellWord)
      .join(" ");
    ctx.err(
      `${ctx.errColor.red(t("not followed:"))} ${t("the vouchers are queued, but the service could not be asked how they ended: {message}", { message: textOf(summary.unfollowed) })}\n  ${t("hint:")} ${t("`{command}` follows them later (nothing is queued twice)", { command })}`,
    );
  }
  // Stopped because stdout could not be written (a full disk): the run's results are lost to
  // the reader, which is no interruption by the user.
  if (ctx.outputFailure && ctx.outputFailure.code !== "EPIPE") return "unavailable";
  // The report was asked for, and is incomplete: a cron job must not read it as the whole truth.
  if (report?.failure) return "unavailable";
  if (summary.cancelled) return "done";
  const outcome = summaryOutcome(summary);
  return outcome === "done" && (qrMissing > 0 || stillQueued > 0) ? "partial" : outcome;
}

export const issueInstant = issueCommand("instant");
export const issueQueued = issueCommand("queued");
