import type { NodeAPI } from "node-red";
import type { ProfileStatus } from "../client";
import { bodyFields, selectField, selected } from "./lib/declarations/declaration";
import { NODE_DECLARATIONS } from "./lib/declarations/node-declarations";
import { registerOperationNode } from "./lib/shell/operation-node";
import { single } from "./lib/shell/output";
import { profileBody, requireProfile, withCarriedProfile } from "./lib/profile/body";
import { browserAddress, profileHandle } from "./lib/profile/handle";
import { fieldsToBody } from "./lib/shell/properties";
import { seconds, waitUntil } from "./lib/shell/wait";
import { cloudStatus } from "./lib/profile/cloud-runs";
import { whereOf } from "./lib/profile/where";

const declaration = NODE_DECLARATIONS["morelogin-profile-status"];
const fields = bodyFields(declaration);
const waitForField = selectField(declaration, "waitFor");
/** How long `waitFor` waits when the node's timeout is blank. */
const WAIT_DEFAULT_MS = 60_000;

/**
 * MoreLogin's spec says each profile reports "running" or "stopped" (its example shows "0"); a
 * profile with a debug port is running whatever the word.
 */
function isRunning(status: ProfileStatus): boolean {
  const word = String(status.status ?? "").toLowerCase();
  return word === "running" || (word !== "stopped" && String(status.debugPort ?? "") !== "");
}

export = (RED: NodeAPI): void => {
  registerOperationNode(RED, declaration.type, {
    label: declaration.label,
    async run({ node, def, msg, client, options, t }) {
      const body = withCarriedProfile(profileBody(await fieldsToBody(RED, node, def, msg, fields), msg.payload), msg);
      requireProfile(body, msg.payload, t);
      const waitFor = waitForField ? selected(def, waitForField) : "";
      if (whereOf(declaration, def, body, msg, true) === "cloud") return cloudStatus(waitFor)({ RED, node, def, msg, client, options, t }, body);
      const read = (callOptions: typeof options) => client.call("profileStatus", body, callOptions);
      const result = waitFor
        ? await waitUntil(options, WAIT_DEFAULT_MS, read, {
            reached: ({ data }) => isRunning(data) === (waitFor === "running"),
            describe: (last) =>
              t(waitFor === "running" ? "morelogin-profile-status.error.notRunning" : "morelogin-profile-status.error.notStopped", {
                id: String(body.envId ?? body.uniqueId),
                time: seconds(options.timeoutMs ?? WAIT_DEFAULT_MS),
                status: last ? JSON.stringify(last.data.status) : t("morelogin-profile-status.error.noStatus"),
              }),
            context: { api: "local", path: "/api/env/status" },
          })
        : await read(options);

      const status = result.data;
      const envId = String(status.envId ?? body.envId ?? "");
      msg.topic = envId;
      const running = isRunning(status);
      const address = running ? await browserAddress(client, status.debugPort) : {};
      const info = { api: result.api, path: result.path, requestId: result.requestId, ...(running ? { profile: profileHandle(envId, status.debugPort, address) } : {}) };
      const messages = single(msg, { ...status, ...address }, info);
      if (!running && msg.morelogin?.profile?.envId === envId) {
        delete msg.morelogin.profile;
        delete msg.morelogin.page;
      }
      return { messages, summary: t(running ? "morelogin-profile-status.status.running" : "morelogin-profile-status.status.stopped") };
    },
  });
};
