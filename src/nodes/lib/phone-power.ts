import type { CallOptions, CloudPhoneDetail, MoreLoginClient } from "../../client";
import { seconds, waitUntil } from "./wait";

/** `envStatus` of a cloud phone (the cloud-phone spec). */
export const PHONE_STATUS = { new: 0, creationFailed: 1, stopped: 2, starting: 3, running: 4, resetting: 5, restarting: 6 } as const;
const WORDS: Record<number, string> = { 0: "new", 1: "creation failed", 2: "stopped", 3: "starting", 4: "running", 5: "resetting", 6: "restarting" };

/** A power-on takes 30 to 90 s; MoreLogin's CLI waits 120 s. */
export const POWER_WAIT_MS = 120_000;

export type PowerAction = "powerOn" | "powerOff" | "restart";

function describeStatus(status: unknown): string {
  return typeof status === "number" && WORDS[status] ? `${status} (${WORDS[status]})` : JSON.stringify(status);
}

function failureText(phone: CloudPhoneDetail): string {
  return typeof phone.errorMsg === "string" && phone.errorMsg !== "" ? `: ${phone.errorMsg}` : "";
}

/**
 * Polls `/cloudphone/info` until the phone is where the power action leads: running (4) after a
 * power-on or restart, stopped (2) after a power-off. A power-on or restart that falls back to
 * stopped after it began has failed on MoreLogin's side, and says so at once. A restart counts as
 * done only once the phone has been seen away from running, so an answer from before it began is not
 * taken for its end.
 */
export async function waitForPower(client: MoreLoginClient, options: CallOptions, id: string, action: PowerAction): Promise<CloudPhoneDetail> {
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
      return fellBack || data.envStatus === PHONE_STATUS.creationFailed ? `cloud phone ${id} stopped instead of running${failureText(data)}` : undefined;
    },
    describe: (last) =>
      `cloud phone ${id} was not ${target === PHONE_STATUS.running ? "running" : "stopped"} within ${seconds(options.timeoutMs ?? POWER_WAIT_MS)}; last envStatus seen: ${last ? describeStatus(last.data.envStatus) : "none"}`,
    context: { api: options.api ?? "local" },
  });
  return result.data;
}
