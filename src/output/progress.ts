/** The batch progress bar (cli-progress), on stderr, for people at a terminal. */
import { createRequire } from "node:module";
import type cliProgress from "cli-progress";
import type { VoucherResult } from "../batch/result.js";
import { t } from "../i18n/index.js";

export class Progress {
  private readonly bars: cliProgress.MultiBar;
  private readonly bar: cliProgress.SingleBar;
  private readonly counts = { issued: 0, rejected: 0, skipped: 0, other: 0 };
  private readonly started = Date.now();

  constructor(
    private readonly stream: NodeJS.WritableStream,
    private readonly total: number,
  ) {
    // Loaded only when a bar is drawn: most runs are not at a terminal (bench/startup.mjs).
    const { MultiBar, Presets } = createRequire(import.meta.url)("cli-progress") as typeof cliProgress;
    this.bars = new MultiBar(
      {
        stream: stream as NodeJS.WriteStream,
        format: t(
          "{bar} {value}/{total} | issued {issued} rejected {rejected} skipped {skipped} | {rate}/s | ETA {eta_formatted}",
        ),
        hideCursor: true,
        clearOnComplete: false,
        etaBuffer: 50,
      },
      Presets.shades_classic,
    );
    this.bar = this.bars.create(total, 0, this.payload());
  }

  private payload() {
    const seconds = Math.max(0.001, (Date.now() - this.started) / 1000);
    const done = this.counts.issued + this.counts.rejected + this.counts.skipped + this.counts.other;
    return { ...this.counts, rate: (done / seconds).toFixed(1), remaining: this.total - done };
  }

  tick(result: VoucherResult): void {
    if (result.status === "issued" || result.status === "queued") this.counts.issued++;
    else if (result.status === "rejected") this.counts.rejected++;
    else if (result.status === "skipped-duplicate") this.counts.skipped++;
    else this.counts.other++;
    this.bar.increment(1, this.payload());
  }

  /**
   * Output written to another stream of the same terminal (stdout), kept above the bar: the
   * bar's line is cleared first and drawn again after.
   */
  async above(write: () => Promise<void>): Promise<void> {
    this.stream.write("\r\u001b[2K");
    await write();
    this.bars.update();
  }

  stop(): void {
    this.bars.stop();
  }
}
