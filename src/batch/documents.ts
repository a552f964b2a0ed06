/**
 * An issued voucher's documents (PDF and ticket), saved from the links the service gives: an
 * expired link is regenerated once; a link the service cannot serve is its failure, in its words.
 */

import { errorTexts } from "../api/client.js";
import { documentUrl, isPdf } from "../api/documents.js";
import type { Service } from "../api/protocol.js";
import { writeSafely } from "../durable/files.js";
import { FacturarError } from "../errors.js";
import { msg, type Text } from "../i18n/message.js";

/** The link said there is no such document (no ticket for the old PDF model): not a failure. */
export class NoDocument extends Error {}

/** A document link that gives no PDF: the service's doing, not a bug of ours (exit 6). */
export class DocumentUnavailableError extends FacturarError {
  constructor(message: Text) {
    super(message, "unavailable", "document.unavailable", msg("run the same command again later"));
  }
}

/** What a failed download's body says, where it is the service's JSON error (`errores`), printable. */
function serviceSays(body: Buffer): string | undefined {
  if (body.length > 64 * 1024) return undefined;
  try {
    return errorTexts((JSON.parse(body.toString("utf8")) as { errores?: unknown } | null)?.errores)[0]?.slice(0, 300);
  } catch {
    return undefined;
  }
}

/**
 * Downloads a document link and saves it; an expired link is regenerated once. Where a link may
 * point is src/api/documents.ts's policy (https on public hosts, http on loopback, the service's
 * own host), checked here before connecting and again at connect time.
 */
export async function saveDocument(
  service: Service,
  dir: string,
  name: string,
  url: string | null,
  regenerate: () => Promise<string | null>,
): Promise<string> {
  let link = url;
  for (let attempt = 0; attempt < 2; attempt++) {
    if (!link) {
      link = await regenerate();
      if (!link) throw new NoDocument();
      if (attempt === 0) continue;
    }
    const target = documentUrl(service.baseUrl, link);
    const response = await service.download(target);
    if ((response.status === 410 || response.status === 404 || response.status === 403) && attempt === 0) {
      link = await regenerate();
      continue;
    }
    if (response.status !== 200) {
      const said = serviceSays(response.body);
      throw new DocumentUnavailableError(
        said
          ? msg("the link answered HTTP {status}: {said}", { status: response.status, said })
          : msg("the link answered HTTP {status}", { status: response.status }),
      );
    }
    if (!isPdf(response.body)) throw new DocumentUnavailableError(msg("the link did not return a PDF"));
    return writeSafely(dir, name, response.body);
  }
  throw new DocumentUnavailableError(msg("no working link for the document"));
}

/**
 * Documents downloading at once across a run's lanes: a small fixed pool. The service does not
 * space them like API calls (reference §11), so they run beside the lanes' calls, in the 100 ms
 * those wait between them, without a burst of a whole batch's documents at once.
 */
export const DOWNLOADS_AT_ONCE = 4;

/** At most `size` tasks running at once; the others wait their turn, in the order they came. */
export class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = Math.max(1, size);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((turn) => this.waiting.push(turn));
    try {
      return await task();
    } finally {
      // The slot goes straight to the next in line, if any.
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}
