/** Runs `facturar sandbox` as a real child process and talks to it over HTTP, as a client would. */
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { BIN, ROOT, tempDir } from "./helpers.js";

export interface PointOfSaleInfo {
  punto_venta: number;
  usertoken: string;
  apikey: string;
  apitoken: string;
}

export interface RunningSandbox {
  baseUrl: string;
  pointsOfSale: PointOfSaleInfo[];
  dataDir: string;
  child: ChildProcess;
  /** POSTs `body` with the first point of sale's credentials (or `pv`'s). */
  call(
    method: string,
    body?: Record<string, unknown>,
    pv?: PointOfSaleInfo,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export { tempDir };

/** The environment of an env-only profile pointed at a running sandbox's point of sale (its first by default). */
export function sandboxEnv(
  s: RunningSandbox,
  base: Record<string, string>,
  pv = s.pointsOfSale[0] as PointOfSaleInfo,
): Record<string, string> {
  return {
    ...base,
    FACTURAR_BASE_URL: s.baseUrl,
    FACTURAR_USERTOKEN: pv.usertoken,
    FACTURAR_APIKEY: pv.apikey,
    FACTURAR_APITOKEN: pv.apitoken,
    FACTURAR_PUNTO_VENTA: String(pv.punto_venta),
  };
}

export async function startSandboxProcess(
  opts: {
    dataDir?: string;
    args?: string[];
    env?: Record<string, string>;
    /** `ulimit -f`: the largest file the process may write, in KiB (a disk that fills up). */
    fileSizeLimitKiB?: number;
  } = {},
): Promise<RunningSandbox> {
  const dataDir = opts.dataDir ?? tempDir();
  const argv = [
    BIN,
    "--json",
    "sandbox",
    "--port",
    "0",
    "--data-dir",
    dataDir,
    "--queue-interval",
    "100",
    ...(opts.args ?? []),
  ];
  const stdio: ["ignore", "pipe", "pipe"] = ["ignore", "pipe", "pipe"];
  const options = { cwd: ROOT, env: { ...process.env, ...opts.env }, stdio };
  const child =
    opts.fileSizeLimitKiB === undefined
      ? spawn(process.execPath, argv, options)
      : // exec: the shell becomes node (same pid), so stop() signals the sandbox itself.
        spawn(
          "bash",
          ["-c", `ulimit -f ${opts.fileSizeLimitKiB} && exec "$0" "$@"`, process.execPath, ...argv],
          options,
        );
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const first = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`sandbox exited with ${code}: ${stderr}`)));
  });
  const info = JSON.parse(first) as { base_url: string; points_of_sale: PointOfSaleInfo[] };
  const pointsOfSale = info.points_of_sale;
  return {
    baseUrl: info.base_url,
    pointsOfSale,
    dataDir,
    child,
    async call(method, body = {}, pv = pointsOfSale[0]) {
      const credentials = pv ? { usertoken: pv.usertoken, apikey: pv.apikey, apitoken: pv.apitoken } : {};
      const res = await fetch(`${info.base_url}/${method}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...credentials, ...body }),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON (a 5xx page): the raw text is the body
      }
      return { status: res.status, body: parsed, headers: res.headers };
    },
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
