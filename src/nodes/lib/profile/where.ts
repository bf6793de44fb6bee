import { describeValue, isPlainObjectValue, MoreLoginInputError } from "../../../client";
import { selected, selectField, type NodeDeclaration } from "../declarations/declaration";
import type { MoreLoginMessage } from "../shell/types";

/** Where a profile's browser runs: in the desktop client on this machine, or in MoreLogin's cloud. */
export type Where = "local" | "cloud";

const WHERES: readonly string[] = ["local", "cloud"];

/**
 * Where this message's profile is started, closed or asked about, taking `where` out of the body:
 * `where` in an object msg.payload (laid over the body) wins; then a node set to `cloud`; then, with
 * `followCarried`, a profile the message carries from a cloud start (`msg.morelogin.profile.where`), when
 * it is the profile the body names, so start (cloud) -> browser -> close needs no second setting.
 */
export function whereOf(declaration: NodeDeclaration, def: Record<string, unknown>, body: Record<string, unknown>, msg: MoreLoginMessage, followCarried: boolean): Where {
  const given = body.where;
  delete body.where;
  if (given !== undefined) {
    if (typeof given === "string" && WHERES.includes(given)) return given as Where;
    throw new MoreLoginInputError(`msg.payload.where must be "local" or "cloud", got ${describeValue(given)}`);
  }
  const field = selectField(declaration, "where");
  if (field && selected(def, field) === "cloud") return "cloud";
  const carried = msg.morelogin?.profile;
  const carriedCloud = followCarried && isPlainObjectValue(carried) && carried.where === "cloud" && String(carried.envId) === String(body.envId ?? "");
  return carriedCloud ? "cloud" : "local";
}
