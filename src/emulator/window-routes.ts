import { ok, profileNotFound, type Reply } from "./replies";
import { ParamError, readChoice, readIdList, readIntegerList, type Body } from "./request-fields";
import type { Route } from "./routes";
import type { EmulatorState } from "./state";

/**
 * The client's screens and its window arrangement (the browser spec's "Cache & Window"). The one
 * screen is the spec's example; arranging windows checks what it names and changes nothing else.
 */

const SCREEN = {
  width: 1920,
  height: 1080,
  internal: false,
  x: 0,
  y: 0,
  current: true,
  scaleFactor: 1,
  id: "2528732444",
  realWidth: 1920,
  realHeight: 1080,
  workAreaWidth: 1920,
  workAreaHeight: 1032,
  rectWorkAreaWidth: 1920,
  rectWorkAreaHeight: 1032,
  rectWorkAreaRealWidth: 1920,
  rectWorkAreaRealHeight: 1032,
  rectWorkAreaX: 0,
  rectWorkAreaY: 0,
  depthPerComponent: 8,
  workAreaRealWidth: 1920,
  workAreaRealHeight: 1032,
  isPrimaryScreen: true,
};
const SCREENS = [SCREEN];
const TILED = 1;
const STACKED = 2;

/** Tiles (1, the default) or stacks (2) the named profiles' windows, or all, on the named screens. */
function arrangeWindows(state: EmulatorState, body: Body): Reply {
  readChoice(body, "arrangeType", [TILED, STACKED]);
  const envIds = readIdList(body, "envIds") ?? [];
  const screenIds = readIntegerList(body, "screenIds") ?? [];
  const unknownScreen = screenIds.find((id) => !SCREENS.some((screen) => screen.id === String(id)));
  if (unknownScreen !== undefined) throw new ParamError(`screen ${unknownScreen} does not exist`);
  if (envIds.some((id) => !state.profilesById.has(id))) return profileNotFound();
  return ok(null);
}

export function windowRoutes(state: EmulatorState): Route[] {
  return [
    { method: "POST", path: "/api/env/getAllScreen", auth: true, handle: () => ok(SCREENS) },
    { method: "POST", path: "/api/env/arrangeWindows", auth: true, handle: ({ body }) => arrangeWindows(state, body) },
  ];
}
