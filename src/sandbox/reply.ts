/** What every sandbox method answers: an HTTP status and a JSON body, and the body of a refusal. */

// biome-ignore lint/suspicious/noExplicitAny: request bodies are untrusted JSON, checked field by field
export type Json = any;

export interface Reply {
  status: number;
  body: Record<string, unknown>;
}

/**
 * The service's success: `error: "N"`, `rta: "OK"` and the method's fields. `errores` is `[""]`
 * for most methods and `[]` for some (reference §6.3): each says it as the real service does.
 */
export function ok(fields: Record<string, unknown>, errores: string[] = NO_ERRORS): Reply {
  return { status: 200, body: { error: "N", errores, rta: "OK", ...fields } };
}

/** The service's refusal: `error: "S"` and its `errores`, with HTTP 200 as the service answers. */
export function fail(errores: string[], extra: Record<string, unknown> = {}): Reply {
  return { status: 200, body: { error: "S", errores, rta: "", ...extra } };
}

/** `errores: [""]` is how several successes say "no error" (reference §6.3). */
export const NO_ERRORS = [""];
