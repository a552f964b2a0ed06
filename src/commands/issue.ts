/** `facturar issue` and `facturar issue-queued`: validate, then send each voucher exactly once. */
import { basename, dirname, resolve } from "node:path";
import QRCode from "qrcode";
import type { VoucherResult } from "../batch/issue.js";
import { type IssueSummary, issueFiles } from "../batch/run.js";
import type { Context } from "../context.js";
import { type Outcome, UsageError } from "../errors.js";
import { writeSafely } from "../output/files.js";
import { resultHuman, resultJson } from "../output/voucher.js";
import { readOptions, type ValidateFlags } from "./validate.js";

export interface IssueFlags extends ValidateFlags {
  validate?: boolean;
  pdf?: boolean;
  out?: string;
  qr?: string;
  allowDuplicate?: boolean;
  wait?: boolean;
  timeout?: string;
  batchSize?: string;
}

export function summaryOutcome(s: IssueSummary): Outcome {
  if (s.invalid > 0) return "invalid";
  if (s.unknown > 0) return "unknown";
  const done = s.issued + s.queued + s.skipped;
  if (s.rejected > 0) return done > 0 ? "partial" : "rejected";
  return "done";
}

async function writeQr(ctx: Context, target: string, result: VoucherResult, several: boolean): Promise<void> {
  if (!result.qr) return;
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
  ctx.err(`QR written to ${path}`);
}

function issueCommand(mode: "instant" | "queued") {
  return async (ctx: Context, files: string[], flags: IssueFlags): Promise<Outcome> => {
    const read = readOptions(ctx, flags);
    if (files.filter((f) => f === "-").length > 1) throw new UsageError("standard input (-) can be read only once");
    const timeout = flags.timeout === undefined ? 300 : Number(flags.timeout);
    if (!Number.isFinite(timeout) || timeout <= 0)
      throw new UsageError(`--timeout takes seconds, not ${JSON.stringify(flags.timeout)}`);
    if (flags.timeout !== undefined && !flags.wait) throw new UsageError("--timeout goes with --wait");
    const maxBatch = mode === "queued" ? 100 : 20;
    const batchSize = flags.batchSize === undefined ? undefined : Number(flags.batchSize);
    if (batchSize !== undefined && (!Number.isInteger(batchSize) || batchSize < 2 || batchSize > maxBatch)) {
      throw new UsageError(`--batch-size takes 2 to ${maxBatch} here, not ${JSON.stringify(flags.batchSize)}`);
    }
    const cwd = process.cwd();
    let results = 0;
    const summary = await issueFiles(
      {
        files,
        read,
        validate: flags.validate !== false,
        mode,
        allowDuplicate: flags.allowDuplicate ?? false,
        savePdf: flags.pdf !== false,
        ...(flags.out ? { outDir: flags.out } : {}),
        wait: flags.wait ?? false,
        waitTimeoutMs: timeout * 1000,
        ...(batchSize ? { batchSize } : {}),
        profile: {
          ...(ctx.profile ? { profile: ctx.profile } : {}),
          ...(ctx.configPath ? { config: ctx.configPath } : {}),
          env: ctx.io.env,
          cwd,
        },
        env: ctx.io.env,
        cwd,
        ...(ctx.verbose ? { log: (line: string) => ctx.err(ctx.errColor.dim(line)) } : {}),
        warn: (line) => {
          if (!ctx.quiet) ctx.err(`${ctx.errColor.yellow("warning:")} ${line}`);
        },
      },
      async (result) => {
        results++;
        if (ctx.json) await ctx.out(JSON.stringify(resultJson(result)));
        else if (!ctx.quiet || !result.ok) for (const line of resultHuman(result, ctx.color, cwd)) await ctx.out(line);
        if (flags.qr && (result.status === "issued" || result.status === "skipped-duplicate"))
          await writeQr(ctx, flags.qr, result, files.length > 1 || results > 1);
      },
    );
    if (!ctx.quiet && !ctx.json) {
      const parts = [
        summary.invalid && `${summary.invalid} invalid (nothing sent)`,
        summary.issued && `${summary.issued} issued`,
        summary.queued && `${summary.queued} queued`,
        summary.skipped && `${summary.skipped} already issued`,
        summary.rejected && `${summary.rejected} rejected`,
        summary.unknown && `${summary.unknown} unknown`,
        summary.cancelled && "cancelled, nothing sent",
      ].filter(Boolean);
      ctx.err(parts.join(", ") || "nothing to do");
    }
    return summary.cancelled ? "done" : summaryOutcome(summary);
  };
}

export const issueInstant = issueCommand("instant");
export const issueQueued = issueCommand("queued");
