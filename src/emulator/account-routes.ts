import { CODES } from "./codes";
import { envelope, ok, phoneNotFound, type Reply } from "./replies";
import { perEmulator } from "./per-emulator";
import { ParamError, readBoolean, readIdList, requireFields, requireText, type Body } from "./request-fields";
import type { Route } from "./routes";
import type { EmulatorState } from "./state";
import { idSequence, mulberry32 } from "./prng";

/** The team's wallet, webhook, monthly cloud-phone plans and browser kernels (Local API only). */

/** The monthly plan of the cloud-phone spec's example: SKU 10015, 2500 US cents for 30 days. */
export const MONTHLY_SKU = { skuId: "10015", price: 2500, days: 30 } as const;
const DAY_MS = 86_400_000;
const MAX_ACTIVATE = 10;
const MAX_CORES = 20;
const MAX_CALLBACK_URL = 1024;
/** The monthly billing type of a cloud phone, and the abnormal status of one not yet activated (the spec). */
export const BILLING_MONTHLY = 2;
export const UNACTIVATED = 1;

interface Account {
  /** Wallet balance in cents; starts at the spec's example figures. */
  balance: number;
  webhook: { callbackUrl: string; enabled: boolean } | undefined;
  /** Kernels installed by `/api/env/core/download`, as "browserType:version". */
  kernels: Set<string>;
  nextOrderId: () => string;
}

const accountOf = perEmulator(
  (state): Account => ({ balance: 12_500, webhook: undefined, kernels: new Set(), nextOrderId: idSequence(mulberry32(state.options.seed ^ 0x0dde), 1_724_032_800_000_000n, 1_000) }),
);

function balance(state: EmulatorState): Reply {
  return ok({ balance: accountOf(state).balance, remainingDuration: "120", remainingConcurrency: 3 });
}

function monthlySkus(): Reply {
  const { skuId, price, days } = MONTHLY_SKU;
  return ok([
    { skuId, skuName: "Android 16", cloudPhoneAndroidVersion: "Android 16", cloudPhoneStorage: 64, prices: [{ price, period: days, periodUnit: "days", priceDesc: `$${price / 100}/${days} days` }] },
  ]);
}

/**
 * All or nothing: every phone must exist and be monthly; the ones not yet activated are charged
 * together, the ones already active are restored without a charge (the spec's "same paid order").
 */
function activate(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["ids"]);
  const ids = readIdList(body, "ids") ?? [];
  if (ids.length === 0 || ids.length > MAX_ACTIVATE || new Set(ids).size !== ids.length) throw new ParamError(`ids must hold 1 to ${MAX_ACTIVATE} distinct IDs`);
  const entries = ids.map((id) => state.phones.get(id));
  if (entries.some((entry) => entry === undefined)) return phoneNotFound();
  const phones = entries.flatMap((entry) => (entry ? [entry.phone] : []));
  if (phones.some((phone) => phone.billingType !== BILLING_MONTHLY)) throw new ParamError("every phone must be a monthly cloud phone");
  const account = accountOf(state);
  const charge = phones.filter((phone) => phone.abnormalStatus === UNACTIVATED).length * MONTHLY_SKU.price;
  if (charge > account.balance) throw new ParamError("the wallet balance is too low");
  account.balance -= charge;
  const expireTime = String(Date.now() + MONTHLY_SKU.days * DAY_MS);
  for (const phone of phones) phone.abnormalStatus = 0;
  return ok({ orderId: account.nextOrderId(), orderStatus: 1, results: phones.map((phone) => ({ id: phone.id, status: "ACTIVATED", expireTime, errorCode: null })) });
}

function isLoopback(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || hostname.startsWith("127.");
}

/** An HTTPS address of 1 to 1024 characters that is not loopback (the shared spec); the reply echoes it. */
function webhookConfig(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["callbackUrl", "enabled"]);
  const callbackUrl = requireText(body, "callbackUrl");
  const enabled = readBoolean(body, "enabled") ?? false;
  let url: URL;
  try {
    url = new URL(callbackUrl);
  } catch {
    throw new ParamError("callbackUrl must be a URL");
  }
  if (callbackUrl.length > MAX_CALLBACK_URL || url.protocol !== "https:" || isLoopback(url.hostname))
    throw new ParamError(`callbackUrl must be a public HTTPS address of at most ${MAX_CALLBACK_URL} characters`);
  accountOf(state).webhook = { callbackUrl, enabled };
  return ok({ callbackUrl, enabled });
}

function coreResult(account: Account, core: Body | undefined, index: number): Record<string, unknown> {
  const browserType = core?.BrowserType;
  const version = core?.Version;
  const head = { index, browserType: typeof browserType === "number" ? browserType : null, requestedVersion: typeof version === "string" ? version : null };
  if (browserType !== 1 && browserType !== 2) return { ...head, status: "failed", errorCode: "UNSUPPORTED_BROWSER_TYPE", msg: "Unsupported browser type" };
  if (typeof version !== "string" || !/^\d{2,3}$/.test(version)) return { ...head, status: "failed", errorCode: "INVALID_VERSION", msg: "Invalid version format" };
  const key = `${browserType}:${version}`;
  const resolvedVersion = `${version}.0`;
  if (account.kernels.has(key)) return { ...head, resolvedVersion, status: "already_installed", source: "already_installed", msg: "Already installed" };
  account.kernels.add(key);
  return { ...head, resolvedVersion, status: "installed", source: "downloaded", msg: "Download successful" };
}

/** Each kernel installs at once; a second request for it is `already_installed`. code 0 all, -1 some, -2 none succeeded. */
function coreDownload(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["Cores"]);
  const cores = body.Cores;
  if (!Array.isArray(cores) || cores.length === 0 || cores.length > MAX_CORES) throw new ParamError(`Cores must hold 1 to ${MAX_CORES} items`);
  const account = accountOf(state);
  const results = cores.map((core: unknown, index) => coreResult(account, typeof core === "object" && core !== null && !Array.isArray(core) ? (core as Body) : undefined, index));
  const failed = results.filter((result) => result.status === "failed").length;
  const code = failed === 0 ? 0 : failed === results.length ? CODES.allKernelsFailed : CODES.closeFailed;
  return { status: 200, payload: envelope(code, code === 0 ? null : "Some kernels failed to download", { total: results.length, succeeded: results.length - failed, failed, results }) };
}

export function accountRoutes(state: EmulatorState): Route[] {
  const post = (path: string, handle: (body: Body) => Reply): Route => ({ method: "POST", path, auth: true, handle: ({ body }) => handle(body) });
  return [
    { method: "GET", path: "/api/balance", auth: true, handle: () => balance(state) },
    { method: "GET", path: "/api/cloudphone/monthly/skus", auth: true, handle: monthlySkus },
    post("/api/cloudphone/monthly/activate", (body) => activate(state, body)),
    post("/api/webhook/config", (body) => webhookConfig(state, body)),
    post("/api/env/core/download", (body) => coreDownload(state, body)),
  ];
}
