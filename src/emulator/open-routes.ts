import { automationRoutes } from "./automation-routes";
import { cloudPhoneRoutes } from "./cloud-phone-routes";
import { CODES } from "./codes";
import { phoneFileRoutes } from "./phone-file-routes";
import { phoneFleetRoutes } from "./phone-fleet-routes";
import { groupTagRoutes } from "./group-tag-routes";
import { proxyRoutes } from "./proxy-routes";
import { fail, ok, type Reply } from "./replies";
import { allTags, appPage, cloudPhonePage, groupPage, proxyPage } from "./list-handlers";
import { requireFields, type Body } from "./request-fields";
import { routeTable, type Route, type RouteTable } from "./routes";
import type { EmulatorState } from "./state";
import { MEMBER_ID, MEMBER_NAME, TEAM_ID, TEAM_NAME } from "./team";

const invalidCredentials = (): Reply => fail(CODES.invalidToken, "Invalid client credentials", 401);

/** client_id may arrive as a JSON number or a string. */
function clientIdText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

function grantToken(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["client_id", "client_secret", "grant_type"]);
  const { apiId, apiKey } = state.options;
  const valid = clientIdText(body.client_id) === apiId && body.client_secret === apiKey && body.grant_type === "client_credentials";
  if (!valid) return invalidCredentials();
  const { accessToken, expiresIn } = state.tokens.grant();
  state.stats.tokensGranted++;
  return ok({
    scope: "cloudphone",
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: expiresIn,
    client_metadata: { name: TEAM_NAME },
  });
}

function userInfo(): Reply {
  return ok({
    teamId: TEAM_ID,
    teamName: TEAM_NAME,
    memberId: MEMBER_ID,
    memberNickName: MEMBER_NAME,
    memberEmail: "emulator@example.invalid",
  });
}

export function openRoutes(state: EmulatorState): RouteTable {
  const post = (path: string, handle: (body: Body) => Reply): Route => ({ method: "POST", path, auth: true, handle: ({ body }) => handle(body) });
  return routeTable([
    { method: "POST", path: "/oauth2/token", auth: false, handle: ({ body }) => grantToken(state, body) },
    { method: "GET", path: "/oauth2/userinfo", auth: true, handle: userInfo },
    post("/cloudphone/page", (body) => cloudPhonePage(state, body)),
    post("/cloudphone/app/page", (body) => appPage(state, body)),
    ...cloudPhoneRoutes(state, "open"),
    ...phoneFleetRoutes(state, "open"),
    ...phoneFileRoutes(state, "open"),
    ...automationRoutes(state, "open"),
    post("/proxyInfo/page", (body) => proxyPage(state, body)),
    post("/envgroup/page", (body) => groupPage(state, body)),
    { method: "GET", path: "/envtag/all", auth: true, handle: () => allTags(state) },
    ...proxyRoutes(state, ""),
    ...groupTagRoutes(state, ""),
  ]);
}
