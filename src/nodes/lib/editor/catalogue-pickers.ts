import type { NodeAPI } from "node-red";
import type { Request, RequestHandler, Response } from "express";
import { isPlainObjectValue, type MoreLoginClient } from "../../../client";
import type { PickerItem } from "./picker-item";

const LIMIT = 200;
const BROWSERS: Readonly<Record<number, string>> = { 1: "Chrome", 2: "Firefox" };

/** What the editor posts besides the config node's settings: the text typed, the profile's OS and user agent. */
interface CatalogueQuery {
  q: string;
  os: number;
  ua?: string;
}

type Serve = (RED: NodeAPI, req: Request, res: Response, work: (client: MoreLoginClient) => Promise<unknown>) => Promise<void>;

const text = (value: unknown): string => (value === undefined || value === null ? "" : String(value));

/** Each catalogue a createAdvanced setting names a value from (the spec's "Fingerprint & Device Config"). */
const CATALOGUES: Readonly<Record<string, (client: MoreLoginClient, query: CatalogueQuery) => Promise<PickerItem[]>>> = {
  async kernels(client) {
    const { data } = await client.call("kernelVersions");
    return data.flatMap((row) => row.versions.map((version) => ({ id: `${row.browserType}:${version}`, name: `${BROWSERS[row.browserType] ?? row.browserType} ${version}` })));
  },
  async timeZones(client, { os }) {
    const { data } = await client.call("timeZonesAndLanguages", { os });
    return (data.time_zone_list ?? []).map((zone) => ({ id: zone.id, name: zone.value }));
  },
  async languages(client, { os }) {
    const { data } = await client.call("timeZonesAndLanguages", { os });
    return (data.language_list ?? []).map((language) => ({ id: language.id, name: language.value }));
  },
  async resolutions(client, { os, ua }) {
    const { data } = await client.call("resolutions", ua === undefined ? { os } : { os, ua });
    return data.map((resolution) => ({ id: resolution.id, name: resolution.value }));
  },
  /** A site is written as platformId and siteId: the suggestion's id holds both, `<platform>:<site>`. */
  async sites(client) {
    const { data } = await client.call("platforms");
    return data.flatMap((platform) =>
      (platform.sites ?? []).map((site) => ({ id: `${platform.id}:${site.id}`, name: `${platform.name} · ${text(site.name ?? site.host)}`, detail: text(site.url) || undefined })),
    );
  },
  async mobileDevices(client, { os }) {
    const { data } = await client.call("mobileDevices", {});
    return data.filter((device) => device.os === undefined || os < 3 || device.os === os).map((device) => ({ id: device.id, name: device.name, detail: text(device.resolution) || undefined }));
  },
};

function queryOf(body: unknown): CatalogueQuery {
  const posted = isPlainObjectValue(body) ? body : {};
  const os = Number(posted.os);
  return {
    q: typeof posted.q === "string" ? posted.q.trim().toLowerCase() : "",
    os: Number.isInteger(os) && os >= 1 && os <= 4 ? os : 1,
    ...(typeof posted.ua === "string" && posted.ua !== "" ? { ua: posted.ua } : {}),
  };
}

/**
 * `morelogin/catalogue/<list>`: the suggestions of the createAdvanced settings pickers, from the desktop
 * client's catalogues, for the OS (and user agent) the settings name; the config node's client is
 * chosen as for the other pickers.
 */
export function registerCatalogueRoutes(RED: NodeAPI, canRead: RequestHandler, serve: Serve): void {
  RED.httpAdmin.post("/morelogin/catalogue/:list", canRead, (req: Request, res: Response) => {
    const list = String(req.params.list);
    const read = Object.hasOwn(CATALOGUES, list) ? CATALOGUES[list] : undefined;
    if (!read) {
      res.status(404).json({ error: `unknown catalogue "${list}"` });
      return;
    }
    void serve(RED, req, res, async (client) => {
      const query = queryOf(req.body);
      const matching = (await read(client, query)).filter((item) => query.q === "" || `${item.name} ${item.id}`.toLowerCase().includes(query.q));
      return { items: matching.slice(0, LIMIT), truncated: matching.length > LIMIT };
    });
  });
}
