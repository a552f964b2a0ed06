/** csv-parse off the main thread, for CsvRecordWorker: a reply per message, in order. */
import { parentPort, workerData } from "node:worker_threads";
import { CsvRecordReader, CsvSyntaxError, type WorkerReply } from "./csv-records.js";

let records: string[][] = [];
let lines: number[] = [];
// Records travel packed in one string unless the text holds a separator (then as arrays).
let packable = true;
const reader = new CsvRecordReader((workerData as { delimiter: string }).delimiter, (record, line) => {
  records.push(record);
  lines.push(line);
});

function reply(error?: WorkerReply["error"]): void {
  const packed = packable ? records.map((r) => r.join("\u0000")).join("\u0001") : undefined;
  const message: WorkerReply = {
    lines: Int32Array.from(lines),
    ...(packed !== undefined ? { packed } : { records }),
    ...(error ? { error } : {}),
  };
  records = [];
  lines = [];
  parentPort?.postMessage(message, [message.lines.buffer as ArrayBuffer]);
}

parentPort?.on("message", async (message: { text?: string }) => {
  try {
    if (message.text !== undefined) {
      if (packable && (message.text.includes("\u0000") || message.text.includes("\u0001"))) packable = false;
      reader.push(message.text);
    } else await reader.end();
    reply();
  } catch (error) {
    reply(
      error instanceof CsvSyntaxError
        ? { kind: error.kind, detail: error.detail, line: error.line }
        : { kind: "other", detail: String(error), line: 0 },
    );
  }
});
