import type { NodeAPI } from "node-red";
import { MoreLoginClient, messageOf } from "../client";
import { capacityOf, pacingOf } from "./lib/config/pacing";
import { keepLeases, stopLeases } from "./lib/config/leases";
import type { ConfigLeaseStore } from "./lib/config/lease-store";
import { configLeaseOf } from "./lib/config/lease-seconds";
import { registerAdminRoutes } from "./lib/editor/admin";
import { metricsObserver, timeJournalSyncs } from "./lib/metrics/feed";
import { registerMetricsRoutes } from "./lib/metrics/routes";
import { configSources, labelOf, type ConfigSource } from "./lib/metrics/sources";
import { CONFIG_CREDENTIALS, EDITOR_SETTINGS } from "./lib/declarations/config";
import { isChecked } from "./lib/shell/checkbox";
import { createTranslator } from "./lib/shell/i18n";
import type { ConfigCredentials, ConfigNode, ConfigNodeDef } from "./lib/shell/types";

/**
 * What a config node says once about a Local API URL on another machine: without the server login the
 * desktop client is not there; with it, a plain http:// URL carries the API Key in clear text.
 */
function remoteLocalWarning(client: MoreLoginClient): string | undefined {
  if (client.localIsLoopback) return undefined;
  if (!client.localLogin) return "morelogin.warnings.remoteLocal";
  return client.local.origin.startsWith("http:") ? "morelogin.warnings.loginClearText" : undefined;
}

export = (RED: NodeAPI): void => {
  const t = createTranslator(RED);
  function MoreLoginConfigNode(this: ConfigNode, def: ConfigNodeDef): void {
    RED.nodes.createNode(this, def);
    this.localUrl = def.localUrl;
    this.openUrl = def.openUrl;
    this.localLogin = isChecked(def.localLogin);
    const credentials: ConfigCredentials = this.credentials ?? {};
    this.leaseSeconds = 0;
    let closeOnStop = false;
    let leaseStore: ConfigLeaseStore | undefined;
    let source: ConfigSource | undefined;
    const label = labelOf(def);
    try {
      const leases = configLeaseOf(def);
      this.leaseSeconds = leases.lease;
      closeOnStop = leases.closeOnStop;
      this.client = new MoreLoginClient({
        localUrl: def.localUrl,
        openUrl: def.openUrl,
        localToken: credentials.localToken,
        apiId: credentials.apiId,
        apiKey: credentials.apiKey,
        pacing: pacingOf(def),
        capacity: capacityOf(def),
        localLogin: this.localLogin,
        observer: metricsObserver(label),
      });
      source = { label, client: this.client };
      configSources.add(source);
      const warning = remoteLocalWarning(this.client);
      if (warning) this.warn(t(warning, { host: this.client.local.hostname }));
      leaseStore = keepLeases(RED, this, this.client, t);
    } catch (error) {
      this.clientError = messageOf(error);
      this.error(t("morelogin.errors.configInvalid", { reason: this.clientError }));
    }

    this.on("close", (removed: boolean, done: () => void) => {
      if (source) configSources.delete(source);
      const client = this.client;
      this.client = undefined;
      if (!client) return done();
      const closeClient = (): void => void client.close().then(done, done);
      if (!leaseStore) return closeClient();
      stopLeases(this, client, leaseStore, closeOnStop, removed, t).then(closeClient, closeClient);
    });
  }

  registerAdminRoutes(RED);
  registerMetricsRoutes(RED);
  timeJournalSyncs();

  RED.nodes.registerType<ConfigNode, ConfigNodeDef, { moreloginConfigEditor: typeof EDITOR_SETTINGS }, ConfigCredentials>("morelogin-config", MoreLoginConfigNode, {
    credentials: CONFIG_CREDENTIALS,
    settings: { moreloginConfigEditor: { value: EDITOR_SETTINGS, exportable: true } },
  });
};
