/**
 * From a profile to a working client (api/connection.ts). `base_url: "sandbox"` starts the
 * embedded development-mode service in this process for the duration of the command (its state
 * in the user's data folder), or, when another facturar process already runs it on that folder,
 * talks to that one. This is the one place that knows both the api layer and the sandbox: the
 * api is handed an address, credentials and a way to close.
 */

import { ApiClient, type ClientOptions } from "../api/client.js";
import type { AccountKey, Connection, ConnectOptions } from "../api/connection.js";
import { HttpService } from "../api/protocol.js";
import { sandboxDataDir } from "../config/paths.js";
import { type Credentials, checkBaseUrl, isLoopback, type Profile, SANDBOX } from "../config/profile.js";
import { FacturarError, textOf, UsageError, type WordedError } from "../errors.js";
import { concat, msg, type Text } from "../i18n/message.js";
import { FaultSpecError, parseFaults, sandboxSettleWindow } from "../sandbox/faults.js";
import { VERSION } from "../version.js";
import { clockFrom } from "../voucher/dates.js";

const USER_AGENT = `facturar/${VERSION} (+node ${process.versions.node})`;

/** Seconds from a `FACTURAR_*_TIMEOUT` variable (slow links, tests), in ms; undefined when unset. */
function timeoutFrom(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new UsageError(msg("{name} takes seconds, not {value}", { name, value: JSON.stringify(raw) }));
  return seconds * 1000;
}

/** The real platform may hold an instant call for about 90 s (reference §3) before it answers. */
const SERVICE_SETTLE_WINDOW_MS = 120_000;

/** The least time the real service asks between requests (reference §11); it answers 429 to less. */
const SERVICE_SPACING_MS = 100;

/** A service's address as one account key: scheme, lower-case host, port, path without trailing slashes. */
function serviceKey(baseUrl: string): string {
  const url = new URL(baseUrl);
  // 127.0.0.1, localhost and [::1] are one machine: one journal, one lock.
  const host = isLoopback(url.hostname) ? "loopback" : url.hostname.toLowerCase();
  return `${url.protocol}//${host}${url.port ? `:${url.port}` : ""}${url.pathname.replace(/\/+$/, "")}`;
}

/**
 * Whose journal a profile writes, without connecting: for the embedded sandbox, from its account
 * file (undefined when it has never run).
 */
export async function accountOf(profile: Profile, env: NodeJS.ProcessEnv): Promise<AccountKey | undefined> {
  if (profile.baseUrl !== SANDBOX)
    return profile.credentials ? serviceAccount(profile.baseUrl, profile.puntoVenta, profile.credentials) : undefined;
  const { readAccount } = await import("../sandbox/store.js");
  const dataDir = sandboxDataDir(env);
  const points = readAccount(dataDir)?.points_of_sale ?? [];
  const pv = points.find((p) => p.punto_venta === (profile.puntoVenta ?? points[0]?.punto_venta));
  return pv ? sandboxAccount(dataDir, pv) : undefined;
}

function serviceAccount(baseUrl: string, puntoVenta: number | undefined, credentials: Credentials): AccountKey {
  return { service: serviceKey(baseUrl), punto_venta: puntoVenta, usertoken: credentials.usertoken };
}

/** The embedded sandbox's account: its data folder, whatever port it listens on this time. */
function sandboxAccount(dataDir: string, pv: { punto_venta: number; usertoken: string }): AccountKey {
  return { service: `sandbox:${dataDir}`, punto_venta: pv.punto_venta, usertoken: pv.usertoken };
}

/** A sandbox setting from the environment; what its parser refuses is a usage error naming the variable. */
function sandboxSetting<T>(
  env: NodeJS.ProcessEnv,
  name: string,
  parse: (specs: string[]) => T,
  SpecError: new (text: Text) => WordedError,
): T {
  try {
    return parse([env[name] ?? ""]);
  } catch (error) {
    // Its words, said in the reader's language (its `message` is the English, for logs).
    if (error instanceof SpecError) throw new UsageError(concat(`${name}: `, error.text));
    throw error;
  }
}

export async function connect(profile: Profile, opts: ConnectOptions): Promise<Connection> {
  const readTimeoutMs = timeoutFrom(opts.env, "FACTURAR_READ_TIMEOUT");
  const settleWindowMs = timeoutFrom(opts.env, "FACTURAR_SETTLE_WINDOW");
  // The first wait before a retry (it doubles each time); tests and slow links set it.
  const backoff = timeoutFrom(opts.env, "FACTURAR_RETRY_BACKOFF");
  const issueTimeoutMs = timeoutFrom(opts.env, "FACTURAR_ISSUE_TIMEOUT");
  /**
   * One limiter per connection, shared by every call of the command (lanes, lookups, listings):
   * the caller's (--rate), else the profile's rate_ms, else what the service asks: 100 ms for a
   * service at a URL (a `facturar sandbox --like-production` too), the spacing fault of the
   * embedded sandbox (none unless set).
   */
  const clientOptions = (baseUrl: string, credentials: Credentials, serviceSpacingMs: number): ClientOptions => ({
    baseUrl,
    credentials,
    userAgent: USER_AGENT,
    minIntervalMs: profile.rateMs ?? serviceSpacingMs,
    ...(opts.log ? { log: opts.log } : {}),
    ...(readTimeoutMs ? { readTimeoutMs } : {}),
    ...(issueTimeoutMs ? { issueTimeoutMs } : {}),
    ...(backoff ? { backoffMs: backoff } : {}),
    ...opts.client,
  });
  if (profile.baseUrl !== SANDBOX) {
    checkBaseUrl(profile.baseUrl);
    if (!profile.credentials)
      throw new FacturarError(
        msg("profile {name} has no credentials", { name: profile.name }),
        "denied",
        "config.credentials",
      );
    const client = new ApiClient(clientOptions(profile.baseUrl, profile.credentials, SERVICE_SPACING_MS));
    return {
      service: new HttpService(client),
      account: serviceAccount(profile.baseUrl, profile.puntoVenta, profile.credentials),
      settleWindowMs: settleWindowMs ?? SERVICE_SETTLE_WINDOW_MS,
      ...(profile.puntoVenta !== undefined ? { puntoVenta: profile.puntoVenta } : {}),
      sandbox: false,
      close: async () => {},
    };
  }

  // Loaded only for the sandbox: it brings pdfkit, which a real profile never needs.
  const { startSandbox } = await import("../sandbox/server.js");
  const { readAccount, SandboxInUseError } = await import("../sandbox/store.js");
  const { registerGuest, waitForGuests } = await import("../sandbox/guests.js");
  const dataDir = sandboxDataDir(opts.env);
  const faults = sandboxSetting(opts.env, "FACTURAR_SANDBOX_FAULTS", parseFaults, FaultSpecError);
  const { parseRates, RateSpecError } = await import("../sandbox/rates.js");
  const rates = sandboxSetting(opts.env, "FACTURAR_SANDBOX_RATES", parseRates, RateSpecError);
  const { parseWebhooks, WebhookSpecError } = await import("../sandbox/webhooks.js");
  const webhooks = sandboxSetting(opts.env, "FACTURAR_SANDBOX_WEBHOOK", parseWebhooks, WebhookSpecError);
  const choose = (points: { punto_venta: number; usertoken: string; apikey: string; apitoken: string }[]) => {
    const wanted = profile.puntoVenta ?? points[0]?.punto_venta;
    const pv = points.find((p) => p.punto_venta === wanted);
    if (!pv) {
      throw new UsageError(
        msg("the sandbox has no point of sale {wanted}; it has {points}", {
          wanted: String(wanted),
          points: points.map((p) => p.punto_venta).join(", "),
        }),
        msg("remove punto_venta from the sandbox profile, or use one of those"),
      );
    }
    return pv;
  };
  const host = () => startSandbox({ dataDir, faults, rates, webhooks, queueIntervalMs: 200, now: clockFrom(opts.env) });
  /** Serves the sandbox until the CLIs using it are done, then stops it. */
  const closeHosted = async (sandbox: Awaited<ReturnType<typeof host>>) => {
    await waitForGuests(dataDir, (pids) =>
      opts.notice?.(
        msg("waiting for process {pids}, which uses this sandbox, to finish", {
          pids: pids.join(", "),
        }),
      ),
    );
    await sandbox.close();
  };
  try {
    const sandbox = await host();
    const pv = choose(sandbox.pointsOfSale);
    opts.log?.(msg("embedded sandbox at {url} (data in {dir})", { url: sandbox.baseUrl, dir: dataDir }));
    // It runs in this process: when it cannot store (a full disk, `ulimit -f`), its user is told
    // why, with the path, rather than only the HTTP 503 it answers from then on.
    sandbox.store.onFailure = (failure) =>
      (opts.notice ?? opts.log)?.(
        msg("the embedded sandbox stopped: {message}; it answers 503 until it is started again", {
          message: failure.message,
        }),
      );
    const client = new ApiClient(clientOptions(sandbox.baseUrl, pv, faults.spacing));
    return {
      service: new HttpService(client),
      account: sandboxAccount(dataDir, pv),
      settleWindowMs: settleWindowMs ?? sandboxSettleWindow(faults),
      puntoVenta: pv.punto_venta,
      sandbox: true,
      // Another CLI may be using this sandbox: it goes on serving until that one is done.
      close: () => closeHosted(sandbox),
    };
  } catch (error) {
    if (!(error instanceof SandboxInUseError)) throw error;
    // Another facturar process holds the sandbox: use it where it listens.
    const account = readAccount(dataDir);
    if (!error.holder.base_url || !account) {
      throw new UsageError(
        msg("{message}, which is not serving it yet", { message: textOf(error) }),
        msg("try again in a moment"),
      );
    }
    const pv = choose(account.points_of_sale);
    opts.log?.(
      msg("using the sandbox of process {pid} at {url}", { pid: error.holder.pid, url: error.holder.base_url }),
    );
    // The holder's spacing, as its settle window: its faults are the ones that answer.
    let leave = registerGuest(dataDir);
    let hosted: Awaited<ReturnType<typeof host>> | undefined;
    const holder = error.holder;
    /**
     * The host may end under this run (killed, or stopped at once): nothing listens where it did.
     * Its folder, store and lock are free then, so this process serves the sandbox itself and
     * goes on; a lost answer is asked about there, as ever. Another guest that got there first
     * is used instead.
     */
    const relocate = async (): Promise<string | undefined> => {
      try {
        hosted = await host();
      } catch (taken) {
        if (taken instanceof SandboxInUseError && taken.holder.pid !== holder.pid) return taken.holder.base_url;
        return undefined;
      }
      leave();
      leave = () => {};
      opts.notice?.(
        msg("the sandbox's host (process {pid}) has ended: this process serves the sandbox now", { pid: holder.pid }),
      );
      return hosted.baseUrl;
    };
    const client = new ApiClient({
      ...clientOptions(error.holder.base_url, pv, holder.spacing_ms ?? 0),
      relocate,
    });
    return {
      service: new HttpService(client),
      account: sandboxAccount(dataDir, pv),
      // The faults that matter are the holder's, not this process's: it says how long it may take.
      settleWindowMs: settleWindowMs ?? error.holder.settle_window_ms ?? SERVICE_SETTLE_WINDOW_MS,
      puntoVenta: pv.punto_venta,
      sandbox: true,
      close: async () => {
        leave();
        if (hosted) await closeHosted(hosted);
      },
    };
  }
}
