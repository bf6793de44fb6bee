/** Example 14, the control panel, as the tests deploy it: its tab, its nodes and the config nodes it names. */
import assert from "node:assert/strict";
import type { Emulator } from "../../src/emulator";
import { EXAMPLE_CONFIG_ID, loadExamples, type FlowNode } from "../../tools/sandbox";

export const CONTROL_PANEL = "14 Control panel";
/** The page: ui-base's path, then ui-page's. */
export const CONTROL_PANEL_PATH = "/dashboard/morelogin";

/** The example's tab, its nodes, and the config nodes it names (the MoreLogin one with the emulator's URLs and credentials). */
export function controlPanelFlow(emulator: Emulator): FlowNode[] {
  const examples = loadExamples({ localUrl: emulator.localUrl, openUrl: emulator.openUrl });
  const nodes = examples.byExample.get(CONTROL_PANEL);
  assert.ok(nodes, `the example "${CONTROL_PANEL}" exists`);
  const tab = examples.flows.find((node) => node.type === "tab" && node.label === CONTROL_PANEL);
  assert.ok(tab);
  const configs = examples.flows.filter((node) => node.z === undefined && node.type !== "tab" && (node.id === EXAMPLE_CONFIG_ID || !node.type.startsWith("morelogin-")));
  return [tab, ...nodes, ...configs.map((node) => (node.id === EXAMPLE_CONFIG_ID ? { ...node, credentials: emulator.credentials } : node))];
}

/** The id of the example's table with this name. */
export function tableId(flow: FlowNode[], name: string): string {
  const table = flow.find((node) => node.type === "ui-table" && node.name === name);
  assert.ok(table, `the example has a table named ${name}`);
  return table.id;
}
