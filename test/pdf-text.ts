/** Text drawn in a pdfkit PDF: inflates its content streams and decodes the hex strings of TJ operators. */
import { inflateSync } from "node:zlib";

export function pdfText(pdf: Buffer): string {
  const out: string[] = [];
  const source = pdf.toString("latin1");
  const streamRe = /stream\r?\n/g;
  for (let m = streamRe.exec(source); m; m = streamRe.exec(source)) {
    const start = m.index + m[0].length;
    const end = source.indexOf("endstream", start);
    if (end < 0) break;
    let content: string;
    try {
      content = inflateSync(pdf.subarray(start, end)).toString("latin1");
    } catch {
      continue;
    }
    const lines: string[] = [];
    for (const tj of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      const parts = [...(tj[1] ?? "").matchAll(/<([0-9a-fA-F]*)>/g)].map((h) =>
        Buffer.from(h[1] ?? "", "hex").toString("latin1"),
      );
      lines.push(parts.join(""));
    }
    out.push(lines.join("\n"));
  }
  return out.join("\n");
}
