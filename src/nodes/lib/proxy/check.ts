import {
  DEFAULT_CHECK_CONCURRENCY,
  DEFAULT_ECHO_URL,
  MoreLoginInputError,
  checkProxy,
  failedCheck,
  inPool,
  describeValue,
  isPlainObjectValue,
  type EchoFields,
  type ProxyCheck,
  type ProxyToCheck,
} from "../../../client";
import type { ActionContext } from "../shell/action-node";
import type { OperationResult } from "../shell/operation-node";
import { single } from "../shell/output";
import { hideSecrets } from "../shell/secrets";
import type { MoreLoginMessageInfo } from "../shell/types";
import { targetsOf, type CheckTarget } from "./targets";

/** Each proxy's own timeout when the node's Timeout is blank: a live proxy answers an echo in a second or two. */
const DEFAULT_TIMEOUT_MS = 10_000;
const MAX_CONCURRENCY = 100;

/** One proxy's outcome, named by the row's ID and name when it has them; never its credentials. */
export type CheckOutcome = { id?: string; proxyName?: string } & ProxyCheck;

interface CheckSettings {
  echoUrl: string;
  /** Where the echo reply keeps the IP, country and time zone, for a service the common names miss. */
  echoFields: EchoFields | undefined;
  concurrency: number;
  timeoutMs: number;
  /** The node's password credential: the password of a row that has none (the lists withhold it). */
  password: string | undefined;
  signal: AbortSignal | undefined;
}

function echoUrlOf(value: unknown, context: ActionContext): string {
  if (value === undefined || value === "") return DEFAULT_ECHO_URL;
  const text = typeof value === "string" ? value.trim() : "";
  // The URL itself stays out of the error: an echo service's URL may carry its token.
  if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol)) throw new MoreLoginInputError(context.t("morelogin-proxy.errors.echoUrl"));
  return text;
}

const ECHO_FIELDS: readonly (keyof EchoFields)[] = ["ip", "country", "timezone"];

/** `echoFields`: an object (or its JSON text) of dotted paths into the reply, `{"ip": "data.addr"}`; blank = the common services' names. */
function echoFieldsOf(value: unknown, context: ActionContext): EchoFields | undefined {
  if (value === undefined || value === "") return undefined;
  let parsed: unknown = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch {
      parsed = undefined;
    }
  }
  const paths = isPlainObjectValue(parsed) ? Object.entries(parsed) : [];
  const valid = isPlainObjectValue(parsed) && paths.every(([name, path]) => ECHO_FIELDS.includes(name as keyof EchoFields) && typeof path === "string" && path.trim() !== "");
  if (!valid) throw new MoreLoginInputError(context.t("morelogin-proxy.errors.echoFields"));
  return paths.length === 0 ? undefined : (Object.fromEntries(paths) as EchoFields);
}

function concurrencyOf(value: unknown, context: ActionContext): number {
  if (value === undefined || value === "") return DEFAULT_CHECK_CONCURRENCY;
  const number = typeof value === "string" ? Number(value) : value;
  if (typeof number !== "number" || !Number.isInteger(number) || number < 1 || number > MAX_CONCURRENCY) {
    throw new MoreLoginInputError(context.t("morelogin-proxy.errors.concurrency", { max: MAX_CONCURRENCY, value: describeValue(value) }));
  }
  return number;
}

function textOf(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

function codeOf(value: unknown): number | string | undefined {
  return typeof value === "number" || (typeof value === "string" && value !== "") ? value : undefined;
}

/** The row as checkProxy takes it, or why it cannot be checked at all. */
function proxyOf(row: Record<string, unknown>, password: string | undefined): ProxyToCheck | string {
  const host = typeof row.proxyIp === "string" ? row.proxyIp.trim() : "";
  if (host === "") return "the proxy has no address (proxyIp)";
  return {
    proxyIp: host,
    proxyPort: codeOf(row.proxyPort) ?? null,
    proxyProvider: codeOf(row.proxyProvider),
    proxyType: codeOf(row.proxyType),
    username: textOf(row.username) ?? null,
    password: textOf(row.password) ?? password ?? null,
  };
}

/** Reads each proxy named by ID (`proxyInfo/page` filtered by `id`, through the client, so paced), remembering the last call for msg.morelogin. */
class RowReader {
  last: MoreLoginMessageInfo | undefined;

  constructor(private readonly context: ActionContext) {}

  async rowOf(target: CheckTarget): Promise<Record<string, unknown> | undefined> {
    if ("row" in target) return target.row;
    const result = await this.context.client.call("listProxies", { pageNo: 1, pageSize: 20, id: target.id }, this.context.options);
    this.last = { api: result.api, path: result.path, requestId: result.requestId };
    return result.data.dataList.find((row) => String(row.id) === target.id);
  }
}

async function checkRow(row: Record<string, unknown> | undefined, target: CheckTarget, settings: CheckSettings): Promise<CheckOutcome> {
  const id = "id" in target ? target.id : row?.id === undefined ? undefined : String(row.id);
  const named = { ...(id === undefined ? {} : { id }), ...(typeof row?.proxyName === "string" ? { proxyName: row.proxyName } : {}) };
  if (row === undefined) return { ...named, ...failedCheck(`no proxy has the ID ${id}`) };
  const proxy = proxyOf(row, settings.password);
  if (typeof proxy === "string") return { ...named, ...failedCheck(proxy) };
  const outcome = await checkProxy(proxy, { echoUrl: settings.echoUrl, fields: settings.echoFields, timeoutMs: settings.timeoutMs, signal: settings.signal });
  return { ...named, ...outcome, error: outcome.error === null ? null : hideSecrets(outcome.error, [proxy.password, settings.password]) };
}

/**
 * The proxy node's `check`: fetches the IP echo through each proxy and says whether it answered, how
 * fast and where it exits. A dead proxy is an outcome (`ok: false`), not an error of the message.
 */
export async function checkAction(context: ActionContext, password: string | undefined): Promise<OperationResult> {
  const { fields, msg, t } = context;
  const settings: CheckSettings = {
    echoUrl: echoUrlOf(fields.echoUrl, context),
    echoFields: echoFieldsOf(fields.echoFields, context),
    concurrency: concurrencyOf(fields.concurrency, context),
    timeoutMs: context.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    password,
    signal: context.options.signal,
  };
  const { targets, many } = targetsOf(msg.payload, fields.proxyId, t);
  const reader = new RowReader(context);
  const outcomes = await inPool(targets, settings.concurrency, async (target) => checkRow(await reader.rowOf(target), target, settings));
  const alive = outcomes.filter((outcome) => outcome.ok).length;
  const [only] = outcomes;
  if (!many && only?.id !== undefined) msg.topic = only.id;
  return {
    messages: single(msg, many ? outcomes : only, reader.last ?? { api: "", path: "" }),
    summary: t("morelogin-proxy.status.check", { alive, total: outcomes.length }),
    fill: alive === outcomes.length ? "green" : alive === 0 ? "red" : "yellow",
  };
}
