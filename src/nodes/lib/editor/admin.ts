import type { NodeAPI } from "node-red";
import type { Request, Response } from "express";
import { fetchAll, messageOf, type MoreLoginClient, type PagedEndpointName } from "../../../client";
import type { Picker } from "../declarations/declaration";
import { registerCatalogueRoutes } from "./catalogue-pickers";
import { connectionTest } from "./connection-test";
import { phoneModelChoices } from "./phone-model-pickers";
import type { PickerItem } from "./picker-item";
import { CHANGE_PERMISSION, EditorRequestError, changesFromDeployed, clientForSettings, deployedClient, findDeployedConfig, flowEnvironment, parseEditorSettings, type EditorClient } from "./access";

const PICKER_LIMIT = 200;

/** One MoreLogin list a picker suggests from, and the field it searches by. */
interface PickerSource {
  /** A paged list, or the tags, which MoreLogin serves whole (then searched here by name). */
  endpoint: PagedEndpointName | "listTags";
  filter?: string;
  item: (raw: Record<string, unknown>) => PickerItem;
}

/** A picker answered by its own code rather than by paging lists, with everything the dialog posted. */
type PickerList = (client: MoreLoginClient, body: unknown) => Promise<unknown>;

/** The team's tags whose name holds `text` (all when blank), at most PICKER_LIMIT of them. */
async function allTags(client: MoreLoginClient, text: string): Promise<{ items: unknown[]; truncated: boolean }> {
  const { data } = await client.call("listTags");
  const needle = text.toLowerCase();
  const matching = (Array.isArray(data) ? data : []).filter((tag) =>
    String(tag.tagName ?? "")
      .toLowerCase()
      .includes(needle),
  );
  return { items: matching.slice(0, PICKER_LIMIT), truncated: matching.length > PICKER_LIMIT };
}

const optional = (value: unknown): string | undefined => (value ? String(value) : undefined);

/**
 * The editor's live pickers and the config node's connection test, under `morelogin/`. Whoever may
 * read config nodes gets what the deployed config node already reaches, with its own client; other
 * URLs or credentials, `${...}` values and config nodes not deployed yet need the permission to
 * change config nodes, since they make the runtime send requests (and secrets) where the editor says.
 */
export function registerAdminRoutes(RED: NodeAPI): void {
  const canRead = RED.auth.needsPermission("morelogin-config.read");
  const pickers: Record<Picker, readonly PickerSource[] | PickerList> = {
    profiles: [{ endpoint: "listProfiles", filter: "envName", item: (raw) => ({ id: String(raw.id), name: String(raw.envName ?? ""), detail: optional(raw.groupName) }) }],
    groups: [{ endpoint: "listGroups", filter: "groupName", item: (raw) => ({ id: String(raw.id), name: String(raw.groupName ?? "") }) }],
    proxies: [
      {
        endpoint: "listProxies",
        filter: "proxyName",
        item: (raw) => ({ id: String(raw.id), name: String(raw.proxyName ?? ""), detail: optional(raw.proxyIp ? `${String(raw.proxyIp)}:${String(raw.proxyPort ?? "")}` : undefined) }),
      },
    ],
    tags: [{ endpoint: "listTags", filter: "tagName", item: (raw) => ({ id: String(raw.id), name: String(raw.tagName ?? "") }) }],
    phones: [{ endpoint: "listCloudPhones", filter: "keyword", item: (raw) => ({ id: String(raw.id), name: String(raw.envName ?? ""), detail: optional(raw.groupName) }) }],
    // A template is the market's or the team's own: both lists, market first, as MoreLogin's apps show them.
    templates: [
      { endpoint: "marketTemplates", filter: "searchKey", item: (raw) => ({ id: String(raw.id), name: String(raw.title ?? ""), detail: "market" }) },
      { endpoint: "personalTemplates", filter: "searchKey", item: (raw) => ({ id: String(raw.id), name: String(raw.title ?? ""), detail: "personal" }) },
    ],
    phoneBrands: (client, body) => phoneModelChoices(client, body, "brands"),
    phoneModels: (client, body) => phoneModelChoices(client, body, "models"),
  };

  RED.httpAdmin.post("/morelogin/pick/:resource", canRead, (req: Request, res: Response) => {
    const resource = String(req.params.resource);
    const sources = Object.hasOwn(pickers, resource) ? pickers[resource as Picker] : undefined;
    if (!sources) {
      res.status(404).json({ error: `unknown list "${String(req.params.resource)}"` });
      return;
    }
    void serve(RED, req, res, async (client) => {
      if (typeof sources === "function") return sources(client, req.body);
      const text = typeof (req.body as { q?: unknown })?.q === "string" ? (req.body as { q: string }).q.trim() : "";
      const items: PickerItem[] = [];
      let truncated = false;
      for (const source of sources) {
        const collected =
          source.endpoint === "listTags"
            ? await allTags(client, text)
            : await fetchAll(client, source.endpoint, source.filter && text ? { [source.filter]: text } : {}, { maxItems: PICKER_LIMIT - items.length });
        items.push(...collected.items.map((item) => source.item(item as Record<string, unknown>)));
        truncated ||= collected.truncated;
        if (items.length >= PICKER_LIMIT) break;
      }
      return { items, truncated };
    });
  });

  registerCatalogueRoutes(RED, canRead, serve);

  RED.httpAdmin.post("/morelogin/test", canRead, (req: Request, res: Response) => {
    void serve(RED, req, res, connectionTest);
  });
}

/** Decides which client may serve the request (or answers 400/403/503 before anything is sent), runs `work`, answers. */
async function serve(RED: NodeAPI, req: Request, res: Response, work: (client: MoreLoginClient) => Promise<unknown>): Promise<void> {
  let resolved: EditorClient;
  try {
    resolved = await editorClient(RED, req);
  } catch (error) {
    res.status(error instanceof EditorRequestError ? error.status : 400).json({ error: messageOf(error) });
    return;
  }
  try {
    res.json(await work(resolved.client));
  } catch (error) {
    res.status(502).json({ error: messageOf(error) });
  } finally {
    if (resolved.temporary) await resolved.client.close();
  }
}

async function editorClient(RED: NodeAPI, req: Request): Promise<EditorClient> {
  const settings = parseEditorSettings(req.body as unknown);
  const deployed = findDeployedConfig(RED, settings.id);
  const changes = changesFromDeployed(settings, deployed);
  if (changes.length === 0 && deployed) return deployedClient(deployed);
  if (!(await mayChangeConfigNodes(RED, req))) {
    throw new EditorRequestError(
      403,
      `only a user who may change config nodes (${CHANGE_PERMISSION}) can use ${changes.join(", ")}: your user can pick from and test the config node as it is deployed`,
    );
  }
  return clientForSettings(settings, deployed, flowEnvironment(RED));
}

/**
 * Asks Node-RED's own permission check, so every adminAuth set-up (users, tokens, default
 * permissions, custom strategies) decides as it does for Node-RED's routes. Without adminAuth
 * everyone may change everything, as in the rest of the editor.
 */
function mayChangeConfigNodes(RED: NodeAPI, req: Request): Promise<boolean> {
  return new Promise((resolve) => {
    const refused = (): void => resolve(false);
    const standIn = { statusCode: 200, status: () => standIn, setHeader: () => standIn, end: refused, json: refused, send: refused };
    RED.auth.needsPermission(CHANGE_PERMISSION)(req, standIn as unknown as Response, () => resolve(true));
  });
}
