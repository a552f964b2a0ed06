/**
 * What the core is handed to speak to a service: the typed protocol, whose account it is, and how
 * to end. Where it comes from (a profile's URL, or the embedded sandbox elected by
 * session/connect.ts) is not the api layer's business.
 */

import type { Profile } from "../config/profile.js";
import type { Text } from "../i18n/message.js";
import type { ClientOptions } from "./client.js";
import type { Service } from "./protocol.js";

/** Whose journal and caches: the service, the point of sale and the user (see batch/journal.ts). */
export interface AccountKey {
  /** The service's normalised base URL, or `sandbox:<data folder>` for the embedded one. */
  service: string;
  punto_venta: number | undefined;
  usertoken: string;
}

export interface Connection {
  /** The typed protocol: the one way the core and the commands speak to the service. */
  service: Service;
  /** Whose journal and caches: the service, the point of sale and the user (see journal.ts). */
  account: AccountKey;
  /**
   * How long after a send the service may still be storing a voucher: a lookup that finds
   * nothing inside this window is not final (FACTURAR_SETTLE_WINDOW, seconds).
   */
  settleWindowMs: number;
  /** The point of sale vouchers default to: the profile's, or the sandbox's first. */
  puntoVenta?: number;
  sandbox: boolean;
  close(): Promise<void>;
}

export interface ConnectOptions {
  env: NodeJS.ProcessEnv;
  log?: (line: Text) => void;
  /** What the user should know even without --verbose (a host waiting for a guest). */
  notice?: (line: Text) => void;
  client?: Partial<ClientOptions>;
}

/** A profile to a connection: what the commands hand the core (session/connect.ts is the one). */
export type Connect = (profile: Profile, opts: ConnectOptions) => Promise<Connection>;
