import { ParamError, readId, readIdList, readPositiveInt, type Body } from "./request-fields";
import type { EmulatorState } from "./state";
import type { Profile } from "./types";

/** The profile named by `envId`, or else by `uniqueId` (envId wins when both are sent); one of them is required. */
export function profileByIdOrSerial(state: EmulatorState, body: Body): Profile | undefined {
  const envId = readId(body, "envId");
  if (envId !== undefined) return state.profilesById.get(envId)?.profile;
  if (body.uniqueId === undefined || body.uniqueId === null || body.uniqueId === "") throw new ParamError("envId or uniqueId is required");
  return state.profileByUniqueId(readPositiveInt(body, "uniqueId", 1));
}

/** The profile named by `envId`, which the route requires. */
export function profileById(state: EmulatorState, body: Body): Profile | undefined {
  const envId = readId(body, "envId");
  if (envId === undefined) throw new ParamError("envId is required");
  return state.profilesById.get(envId)?.profile;
}

/**
 * The profiles a batch names by `envIds` and/or `uniqueIds` (serial numbers, sent as strings or
 * numbers); at least one must be non-empty. Undefined when any of them does not exist.
 */
export function profilesOf(state: EmulatorState, body: Body): Profile[] | undefined {
  const envIds = readIdList(body, "envIds") ?? [];
  const uniqueIds = readIdList(body, "uniqueIds") ?? [];
  if (envIds.length === 0 && uniqueIds.length === 0) throw new ParamError("envIds or uniqueIds is required");
  const found = [...envIds.map((id) => state.profilesById.get(id)?.profile), ...uniqueIds.map((id) => state.profileByUniqueId(Number(id)))];
  if (found.some((profile) => profile === undefined)) return undefined;
  return [...new Set(found as Profile[])];
}
