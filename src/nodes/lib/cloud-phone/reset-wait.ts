import { MoreLoginError, type CallOptions, type MoreLoginClient } from "../../../client";
import type { Translate } from "../shell/i18n";
import { PHONE_STATUS, POWER_WAIT_MS } from "./power";
import { seconds, waitUntil } from "../shell/wait";

/**
 * Codes MoreLogin's skill says a stop or delete can get right after `newMachine` while the phone
 * resets: 33331 (resetting) and 33327 (in use). Poll `info`, then try again.
 */
export const RESETTING_CODES: ReadonlySet<number> = new Set([33331, 33327]);
/** The phone does not exist (any more): a delete that went through before the refusal. */
const PHONE_NOT_FOUND = 33300;

const busy = (status: unknown): boolean => status === PHONE_STATUS.resetting || status === PHONE_STATUS.restarting;

export function isResetRefusal(error: unknown): boolean {
  return error instanceof MoreLoginError && error.kind === "api" && error.code !== undefined && RESETTING_CODES.has(error.code);
}

/**
 * The phones of `ids` still there once none of them resets or restarts any more: one found gone
 * (33300) is left out, as a batch delete stopped part way has deleted it.
 */
export async function afterReset(client: MoreLoginClient, options: CallOptions, ids: readonly string[], deadline: number, t: Translate): Promise<string[]> {
  const left: string[] = [];
  for (const id of ids) {
    const timeoutMs = Math.max(1, deadline - Date.now());
    let gone = false;
    await waitUntil(
      { ...options, timeoutMs },
      timeoutMs,
      async (callOptions) => {
        try {
          return (await client.call("cloudPhoneInfo", { id }, callOptions)).data.envStatus;
        } catch (error) {
          if (error instanceof MoreLoginError && error.kind === "api" && error.code === PHONE_NOT_FOUND) {
            gone = true;
            return undefined;
          }
          throw error;
        }
      },
      {
        reached: (status) => gone || !busy(status),
        describe: (last) => t("morelogin-cloud-phone.error.stillResetting", { id, time: seconds(options.timeoutMs ?? POWER_WAIT_MS), status: JSON.stringify(last) }),
        context: { api: options.api ?? "local" },
      },
    );
    if (!gone) left.push(id);
  }
  return left;
}

/**
 * Sends `send(ids)`; while MoreLogin refuses it because a phone resets (33331, 33327), waits until
 * none does and sends it again for the phones still there, within the node's timeout.
 */
export async function pastReset<T>(client: MoreLoginClient, options: CallOptions, ids: readonly string[], send: (ids: readonly string[]) => Promise<T>, t: Translate): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? POWER_WAIT_MS);
  let current = [...ids];
  for (;;) {
    try {
      return await send(current);
    } catch (error) {
      if (!isResetRefusal(error) || Date.now() >= deadline) throw error;
      current = await afterReset(client, options, current, deadline, t);
      if (current.length === 0) throw error;
    }
  }
}

/** "The Cloud Phone has not been started up.": while the phone is on its way up, MoreLogin's skill says keep polling. */
const NOT_STARTED = 33301;
const ON_ITS_WAY = new Set<unknown>([PHONE_STATUS.starting, PHONE_STATUS.resetting, PHONE_STATUS.restarting]);

/**
 * Sends `send()`; when it answers 33301 while the phone is starting, resetting or restarting, asks
 * `info` until the phone runs (4) and sends it once more. A phone that is off (or gets there) keeps
 * the refusal: nothing would bring it up.
 */
export async function whenRunning<T>(client: MoreLoginClient, options: CallOptions, id: string, send: () => Promise<T>, t: Translate): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (!(error instanceof MoreLoginError) || error.kind !== "api" || error.code !== NOT_STARTED) throw error;
    let stopped = false;
    await waitUntil(options, POWER_WAIT_MS, (callOptions) => client.call("cloudPhoneInfo", { id }, callOptions), {
      reached: ({ data }) => {
        stopped = !ON_ITS_WAY.has(data.envStatus) && data.envStatus !== PHONE_STATUS.running;
        return stopped || data.envStatus === PHONE_STATUS.running;
      },
      describe: (last) =>
        t("morelogin-cloud-phone.error.notRunning", {
          id,
          time: seconds(options.timeoutMs ?? POWER_WAIT_MS),
          status: last ? JSON.stringify(last.data.envStatus) : t("morelogin-cloud-phone.error.noStatus"),
        }),
      context: { api: options.api ?? "local" },
    });
    if (stopped) throw error;
    return send();
  }
}
