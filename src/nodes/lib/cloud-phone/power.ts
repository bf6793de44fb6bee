import type { CallOptions, CloudPhoneDetail, MoreLoginClient } from "../../../client";
import type { Translate } from "../shell/i18n";
import { seconds, waitUntil } from "../shell/wait";

/** `envStatus` of a cloud phone (the cloud-phone spec). */
export const PHONE_STATUS = { new: 0, creationFailed: 1, stopped: 2, starting: 3, running: 4, resetting: 5, restarting: 6 } as const;
/** Each `envStatus` in words, with its number ("3 (starting)"), as error texts name it. */
const WORDS: Record<number, string> = {
  0: "morelogin.phoneStatus.new",
  1: "morelogin.phoneStatus.creationFailed",
  2: "morelogin.phoneStatus.stopped",
  3: "morelogin.phoneStatus.starting",
  4: "morelogin.phoneStatus.running",
  5: "morelogin.phoneStatus.resetting",
  6: "morelogin.phoneStatus.restarting",
};

/** A power-on takes 30 to 90 s; MoreLogin's CLI waits 120 s. */
export const POWER_WAIT_MS = 120_000;

export type PowerAction = "powerOn" | "powerOff" | "restart";

function describeStatus(status: unknown, t: Translate): string {
  const key = typeof status === "number" ? WORDS[status] : undefined;
  return key ? t(key) : JSON.stringify(status);
}

/** A power-on or restart that ended stopped, with MoreLogin's `errorMsg` when it gives one. */
function stoppedInstead(id: string, phone: CloudPhoneDetail, t: Translate): string {
  return typeof phone.errorMsg === "string" && phone.errorMsg !== ""
    ? t("morelogin.errors.phoneStoppedInsteadReason", { id, reason: phone.errorMsg })
    : t("morelogin.errors.phoneStoppedInstead", { id });
}

/**
 * Polls `/cloudphone/info` until the phone is where the power action leads: running (4) after a
 * power-on or restart, stopped (2) after a power-off. A power-on or restart that falls back to
 * stopped after it began has failed on MoreLogin's side, and says so at once. A restart counts as
 * done only once the phone has been seen away from running, so an answer from before it began is not
 * taken for its end.
 */
export async function waitForPower(client: MoreLoginClient, options: CallOptions, id: string, action: PowerAction, t: Translate): Promise<CloudPhoneDetail> {
  const target = action === "powerOff" ? PHONE_STATUS.stopped : PHONE_STATUS.running;
  let left = action !== "restart";
  let began = false;
  const result = await waitUntil(options, POWER_WAIT_MS, (callOptions) => client.call("cloudPhoneInfo", { id }, callOptions), {
    reached: ({ data }) => {
      if (data.envStatus !== PHONE_STATUS.running) left = true;
      return left && data.envStatus === target;
    },
    failed: ({ data }) => {
      if (action === "powerOff") return undefined;
      if (data.envStatus === PHONE_STATUS.starting || data.envStatus === PHONE_STATUS.restarting) began = true;
      const fellBack = began && data.envStatus === PHONE_STATUS.stopped;
      return fellBack || data.envStatus === PHONE_STATUS.creationFailed ? stoppedInstead(id, data, t) : undefined;
    },
    describe: (last) =>
      t(target === PHONE_STATUS.running ? "morelogin.errors.phoneNotRunning" : "morelogin.errors.phoneNotStopped", {
        id,
        time: seconds(options.timeoutMs ?? POWER_WAIT_MS),
        status: last ? describeStatus(last.data.envStatus, t) : t("morelogin.errors.phoneNoStatus"),
      }),
    context: { api: options.api ?? "local" },
  });
  return result.data;
}
