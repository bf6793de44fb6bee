import { CODES } from "./codes";
import { fail, ok } from "./replies";
import { readText } from "./request-fields";
import type { Route } from "./routes";
import type { EmulatorState } from "./state";

/**
 * MoreLogin's server edition logs in with `POST /api/user/login` `{apiId, apiKey}` (the Open API's API
 * ID and Key); success is code 0 (MoreLogin-API-Demos, `MoreLogin-Python/linux_server_test.py`). The
 * reply's data (null here) and the refusal's code (35002, "API authentication failed") are assumed.
 * Served only with the `login` option.
 */
export function loginRoutes(state: EmulatorState): Route[] {
  if (!state.options.login) return [];
  return [
    {
      method: "POST",
      path: "/api/user/login",
      auth: false,
      handle: ({ body }) => {
        const apiId = readText(body, "apiId");
        const apiKey = readText(body, "apiKey");
        if (apiId !== state.options.apiId || apiKey !== state.options.apiKey) return fail(CODES.authFailed, "API authentication failed");
        state.loggedIn = true;
        return ok(null);
      },
    },
  ];
}
