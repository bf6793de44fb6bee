import type { NodeAPI } from "node-red";
import type { Request, Response } from "express";
import { MoreLoginClient, fetchAll, isPlainObjectValue, type ClientSettings, type PagedEndpointName } from "../../client";
import type { ConfigCredentials, ConfigNode } from "./types";

/** The editor sends this placeholder for a password credential it already has stored. */
const STORED = "__PWRD__";
const PICKER_LIMIT = 200;

interface PickerItem {
  id: string;
  name: string;
  detail?: string;
}

interface EditorSettings {
  id?: string;
  localUrl?: string;
  openUrl?: string;
  credentials?: Partial<Record<keyof ConfigCredentials, string>>;
}

type Resolved = { client: MoreLoginClient; temporary: boolean };

/**
 * The editor's live pickers and the config node's connection test, under `morelogin/`, readable by
 * whoever may read config nodes. They work before the config node is deployed: the editor posts
 * the settings it has, and stored credentials are used only towards the URLs they were deployed for.
 */
export function registerAdminRoutes(RED: NodeAPI): void {
  const canRead = RED.auth.needsPermission("morelogin-config.read");
  const pickers: Record<string, { endpoint: PagedEndpointName; filter?: string; item: (raw: Record<string, unknown>) => PickerItem }> = {
    profiles: { endpoint: "listProfiles", filter: "envName", item: (raw) => ({ id: String(raw.id), name: String(raw.envName ?? ""), detail: raw.groupName ? String(raw.groupName) : undefined }) },
    groups: { endpoint: "listGroups", filter: "groupName", item: (raw) => ({ id: String(raw.id), name: String(raw.groupName ?? "") }) },
    "cloud-phones": { endpoint: "listCloudPhones", filter: "keyword", item: (raw) => ({ id: String(raw.id), name: String(raw.envName ?? "") }) },
    proxies: { endpoint: "listProxies", filter: "proxyName", item: (raw) => ({ id: String(raw.id), name: String(raw.proxyName ?? ""), detail: raw.proxyIp ? String(raw.proxyIp) : undefined }) },
  };

  RED.httpAdmin.post("/morelogin/pick/:resource", canRead, (req: Request, res: Response) => {
    const picker = pickers[String(req.params.resource)];
    if (!picker) {
      res.status(404).json({ error: `unknown list "${String(req.params.resource)}"` });
      return;
    }
    void withClient(RED, req.body as unknown, res, async (client) => {
      const query: Record<string, unknown> = {};
      const text = typeof (req.body as { q?: unknown })?.q === "string" ? ((req.body as { q: string }).q).trim() : "";
      if (picker.filter && text) query[picker.filter] = text;
      const collected = await fetchAll(client, picker.endpoint, query, { maxItems: PICKER_LIMIT });
      return { items: collected.items.map((item) => picker.item(item as Record<string, unknown>)), truncated: collected.truncated };
    });
  });

  RED.httpAdmin.post("/morelogin/tags", canRead, (req: Request, res: Response) => {
    void withClient(RED, req.body as unknown, res, async (client) => {
      const result = await client.call("listTags");
      const tags = Array.isArray(result.data) ? result.data : [];
      return { items: tags.map((tag) => ({ id: String(tag.id), name: String(tag.tagName) })) };
    });
  });

  RED.httpAdmin.post("/morelogin/test", canRead, (req: Request, res: Response) => {
    void withClient(RED, req.body as unknown, res, async (client) => {
      const local = await client.call("listProfiles", { pageNo: 1, pageSize: 1 }).then(
        (result) => ({ ok: true, message: `Local API reachable: ${result.data.total} profiles` }),
        (error: unknown) => ({ ok: false, message: `Local API: ${errorText(error)}` }),
      );
      const open = client.hasOpenCredentials
        ? await client.call("listApps", { pageNum: 1, pageSize: 1 }).then(
            () => ({ ok: true, message: "Open API: signed in with the API ID and API Key" }),
            (error: unknown) => ({ ok: false, message: `Open API: ${errorText(error)}` }),
          )
        : { ok: null, message: "Open API: not checked (no API ID and API Key set)" };
      return { local, open };
    });
  });
}

async function withClient(RED: NodeAPI, body: unknown, res: Response, work: (client: MoreLoginClient) => Promise<unknown>): Promise<void> {
  let resolved: Resolved;
  try {
    resolved = resolveClient(RED, isPlainObjectValue(body) ? (body as EditorSettings) : {});
  } catch (error) {
    res.status(400).json({ error: errorText(error) });
    return;
  }
  try {
    res.json(await work(resolved.client));
  } catch (error) {
    res.status(502).json({ error: errorText(error) });
  } finally {
    if (resolved.temporary) await resolved.client.close();
  }
}

function resolveClient(RED: NodeAPI, settings: EditorSettings): Resolved {
  const deployed = settings.id ? (RED.nodes.getNode(settings.id) as ConfigNode | null) : null;
  const stored = (settings.id ? (RED.nodes.getCredentials(settings.id) as ConfigCredentials | undefined) : undefined) ?? {};
  const localUrl = substituteEnv(settings.localUrl) ?? deployed?.localUrl;
  const openUrl = substituteEnv(settings.openUrl) ?? deployed?.openUrl;
  const posted = settings.credentials ?? {};
  const sameUrls = Boolean(deployed) && localUrl === deployed?.localUrl && openUrl === deployed?.openUrl;
  const names = ["localToken", "apiId", "apiKey"] as const;

  const wantsStored = names.some((name) => posted[name] === STORED);
  if (wantsStored && !sameUrls) {
    // A stored secret only ever goes where the deployed config node already sends it.
    throw new Error("stored credentials are only used with the URLs they were deployed with: deploy first, or type the credentials again");
  }
  const secret = (name: keyof ConfigCredentials): string | undefined => {
    const value = posted[name];
    if (value === undefined || value === STORED) return sameUrls ? stored[name] : undefined;
    return typeof value === "string" ? value : undefined;
  };

  const unchanged = sameUrls && names.every((name) => secret(name) === stored[name]);
  if (unchanged && deployed?.client && !deployed.client.isClosed) return { client: deployed.client, temporary: false };

  const clientSettings: ClientSettings = {
    localUrl,
    openUrl,
    localToken: substituteEnv(secret("localToken")),
    apiId: substituteEnv(secret("apiId")),
    apiKey: substituteEnv(secret("apiKey")),
    retry: { attempts: 1 },
    timeouts: { request: 8_000, token: 8_000 },
  };
  return { client: new MoreLoginClient(clientSettings), temporary: true };
}

/** `${NAME}` as the whole value is read from the environment, as Node-RED does for deployed nodes. */
function substituteEnv(value: string | undefined): string | undefined {
  const match = value?.match(/^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/);
  return match?.[1] ? process.env[match[1]] : value;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
