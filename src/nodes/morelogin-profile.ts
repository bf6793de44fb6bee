import type { NodeAPI } from "node-red";
import { MoreLoginInputError, isPlainObjectValue, type EndpointName } from "../client";
import { registerActionNode, type ActionContext, type ActionRun } from "./lib/shell/action-node";
import { idsOf, payloadNamesTargets } from "./lib/profile/ids";
import { NODE_DECLARATIONS } from "./lib/declarations/node-declarations";
import { CACHE_KINDS, CLOUD_CACHE_KINDS, type PROFILE_ACTIONS } from "./lib/declarations/profiles";
import { single } from "./lib/shell/output";
import { acceptedProfiles, profileBody, requireProfile, whyNotAProfile, withCarriedProfile } from "./lib/profile/body";
import { overlay, pick } from "./lib/shell/properties";
import { arrangementBody, arrangementFields, userAgentBody } from "./lib/profile/desktop-inputs";
import { createAdvanced } from "./lib/profile/create-advanced";
import { catalogue } from "./lib/profile/catalogue";

const declaration = NODE_DECLARATIONS["morelogin-profile"];

type Result = { data: unknown; api: string; path: string; requestId?: string };

/** The reply goes on as msg.payload, msg.topic names the profile when there is one. */
function reply(context: ActionContext, result: Result, envIds: readonly unknown[], count: number, summaryKey = `morelogin-profile.status.${context.action}`) {
  if (envIds.length === 1) context.msg.topic = String(envIds[0]);
  return {
    messages: single(context.msg, result.data, { api: result.api, path: result.path, requestId: result.requestId }),
    summary: context.t(summaryKey, { count }),
  };
}

/** An action on one profile: the ID from msg.payload, the node, or the started profile the message carries. */
function oneProfile(endpoint: EndpointName, own: (context: ActionContext) => Record<string, unknown>, summaryKey?: (data: unknown) => string): ActionRun {
  return async (context) => {
    const { msg, fields, client, options } = context;
    const body = withCarriedProfile(profileBody({ ...pick(fields, ["envId"]), ...own(context) }, msg.payload), msg);
    requireProfile(body, msg.payload, context.t);
    const result = await client.call(endpoint, body, options);
    return reply(context, result, body.envId === undefined ? [] : [body.envId], 1, summaryKey?.(result.data));
  };
}

/**
 * The body of an action on many profiles: msg.payload may be one ID, an array of IDs, or the profiles a
 * list node sends, or the reply of start profile; otherwise an object payload's `envIds` or `envId`, else the
 * node's profile field, names them, and the object's other fields are laid over the body.
 */
function manyProfilesBody(context: ActionContext, own: Record<string, unknown>): Record<string, unknown> {
  const { msg, fields, t } = context;
  const body = { ...own };
  if (payloadNamesTargets(msg.payload, ["envIds", "uniqueIds", "envId"])) body.envIds = idsOf(msg.payload, "msg.payload", t);
  else if (isPlainObjectValue(msg.payload) && msg.payload.debugPort !== undefined) body.envIds = idsOf(msg.payload.envId, "msg.payload.envId", t);
  else if (isPlainObjectValue(msg.payload)) {
    const { envId, ...rest } = msg.payload;
    body.envIds = idsOf(envId ?? fields.envId, "envId", t);
    return overlay(body, rest);
  } else body.envIds = idsOf(fields.envId, "envId", t);
  return body;
}

/** An action on many profiles at once (see manyProfilesBody); it needs at least one. */
function manyProfiles(endpoint: EndpointName, own: (context: ActionContext) => Record<string, unknown>): ActionRun {
  return async (context) => {
    const { msg, client, options } = context;
    const body = manyProfilesBody(context, own(context));
    const envIds = Array.isArray(body.envIds) ? body.envIds : [];
    const uniqueIds = Array.isArray(body.uniqueIds) ? body.uniqueIds : [];
    if (envIds.length === 0 && uniqueIds.length === 0) {
      const reason = isPlainObjectValue(msg.payload) || Array.isArray(msg.payload) ? undefined : whyNotAProfile(msg.payload, "many", context.t);
      throw new MoreLoginInputError(reason ?? context.t("morelogin.payload.noProfiles", { accepts: acceptedProfiles(context.t, "many") }));
    }
    if (envIds.length === 0) delete body.envIds;
    const result = await client.call(endpoint, body, options);
    return reply(context, result, envIds, envIds.length + uniqueIds.length);
  };
}

function cacheKinds({ def }: ActionContext): Record<string, unknown> {
  return Object.fromEntries(CACHE_KINDS.filter((kind) => def[kind] === true).map((kind) => [kind, true]));
}

/** The ticked cloud-cache kinds, as the API names them (`cookie`, `others`). */
function cloudCacheKinds({ def }: ActionContext): Record<string, unknown> {
  return Object.fromEntries(Object.entries(CLOUD_CACHE_KINDS).flatMap(([property, field]) => (def[property] === true ? [[field, true]] : [])));
}

/** An action on the desktop client that takes no input: its reply's list goes on, counted in the status. */
function listOf(endpoint: "listScreens" | "profileProcesses"): ActionRun {
  return async (context) => {
    const result = await context.client.call(endpoint, {}, context.options);
    return reply(context, result, [], Array.isArray(result.data) ? result.data.length : 0);
  };
}

const lockSummary = (data: unknown): string => (isPlainObjectValue(data) && data.locked === true ? "morelogin-profile.status.locked" : "morelogin-profile.status.lockStatus");
const clearCache = oneProfile("clearProfileCache", cacheKinds);
const cleanCloud = oneProfile("cleanProfileCloudCache", cloudCacheKinds);
const setRemark = manyProfiles("setProfileRemark", ({ fields }) => pick(fields, ["envRemark"]));

const ACTIONS = {
  async create(context: ActionContext) {
    const { msg, fields, client, options } = context;
    const own = pick(fields, ["groupId"]);
    const body = isPlainObjectValue(msg.payload) ? overlay(own, msg.payload) : own;
    const result = await client.call("createProfiles", body, options);
    const ids = Array.isArray(result.data) ? result.data : [];
    return reply(context, result, ids, ids.length);
  },
  update: oneProfile("updateProfile", ({ fields }) => pick(fields, ["envName", "envRemark", "groupId", "proxyId"])),
  delete: manyProfiles("deleteProfiles", ({ def }) => (def.removeEnvData === true ? { removeEnvData: true } : {})),
  detail: oneProfile("profileDetail", () => ({})),
  refreshFingerprint: oneProfile("refreshFingerprint", () => ({})),
  clearCache: async (context: ActionContext) => {
    const chosen = { ...cacheKinds(context), ...(isPlainObjectValue(context.msg.payload) ? pick(context.msg.payload, CACHE_KINDS) : {}) };
    if (!Object.values(chosen).some((value) => value === true)) {
      throw new MoreLoginInputError(`nothing to clear: tick at least one of ${CACHE_KINDS.join(", ")}`);
    }
    return clearCache(context);
  },
  cleanCloud: async (context: ActionContext) => {
    const kinds = Object.values(CLOUD_CACHE_KINDS);
    const chosen = { ...cloudCacheKinds(context), ...(isPlainObjectValue(context.msg.payload) ? pick(context.msg.payload, kinds) : {}) };
    if (!Object.values(chosen).some((value) => value === true)) {
      throw new MoreLoginInputError(`nothing to clean: tick cookies, other data or both (msg.payload.${kinds.join(" or msg.payload.")})`);
    }
    return cleanCloud(context);
  },
  setGroup: manyProfiles("setProfileGroup", ({ fields }) => pick(fields, ["groupName"])),
  setProxy: manyProfiles("setProfileProxy", ({ fields }) => (fields.proxyId === undefined ? {} : { proxy: { proxyId: fields.proxyId } })),
  setRemark: async (context: ActionContext) => {
    const given = isPlainObjectValue(context.msg.payload) ? context.msg.payload.envRemark : undefined;
    if (context.fields.envRemark === undefined && typeof given !== "string") {
      throw new MoreLoginInputError('setRemark needs the remark: set it in the node, or send msg.payload.envRemark ("" clears it)');
    }
    return setRemark(context);
  },
  async closeAll(context: ActionContext) {
    const result = await context.client.call("closeAllProfiles", {}, context.options);
    const replied = reply(context, result, [], 0);
    // Every browser is closed: the one the message carried no longer leads anywhere.
    delete context.msg.morelogin?.profile;
    delete context.msg.morelogin?.page;
    return replied;
  },
  lockStatus: oneProfile("profileLock", () => ({}), lockSummary),
  async ua(context: ActionContext) {
    const result = await context.client.call("userAgent", userAgentBody(context), context.options);
    return reply(context, result, [], 1);
  },
  screens: listOf("listScreens"),
  /** The profiles' windows (all of them when none is named), tiled or stacked on the chosen screens. */
  async arrangeWindows(context: ActionContext) {
    const body = arrangementBody(manyProfilesBody(context, arrangementFields(context)), context.t);
    const envIds = Array.isArray(body.envIds) ? body.envIds : [];
    const result = await context.client.call("arrangeWindows", body, context.options);
    return reply(context, result, envIds, envIds.length);
  },
  processes: listOf("profileProcesses"),
  createAdvanced,
  catalogue,
} satisfies Record<(typeof PROFILE_ACTIONS)[number], ActionRun>;

export = (RED: NodeAPI): void => {
  registerActionNode(RED, declaration, ACTIONS);
};
