import assert from "node:assert/strict";
import type { Node, NodeMessage } from "node-red";
import { useEmulator } from "../support/emulator";
import { CONFIG_ID, TAB, configNode, credentialsFor, helper, loadFlow, useNodeRed, type FlowNode } from "../support/node-red";
import { waitUntil } from "../support/wait-until";
import { redeploy } from "../support/redeploy";
import { SecretScanner } from "../support/secrets";
import { hostileValues, mulberry32 } from "./hostile-values";

const ROUNDS = 4;
const WATCHES_PER_ROUND = 60;

type Random = () => number;
const pick = <T>(random: Random, values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;

/**
 * Watch nodes deployed with settings drawn mostly from valid values, some hostile: each
 * must end up either watching (a green status, no error) or refusing its settings (one error that
 * reaches Catch, a red status), never both, never neither, and never crash the runtime.
 */
describe("reliability: hostile watch settings", function () {
  this.timeout(300_000);
  const prototypeBefore = JSON.stringify(Object.getOwnPropertyNames(Object.prototype).sort());
  useNodeRed();
  const { emulator } = useEmulator({ profiles: 20, cloudPhones: 8, localToken: "fuzz-watch-token-5521" });

  it(`${ROUNDS} deploys of ${WATCHES_PER_ROUND} watches with hostile settings: one outcome each, no crash, no secret shown`, async () => {
    const hostile = hostileValues("http://127.0.0.1:9/", [emulator().data.profiles[0]?.id, emulator().data.cloudPhones[0]?.id, 2, 10]);
    const ids = [emulator().data.profiles[0]?.id, `${emulator().data.profiles[1]?.id} ${emulator().data.cloudPhones[1]?.id}`, ""];
    const valid: Record<string, readonly unknown[]> = {
      watch: ["profiles", "phones", "runs"],
      api: ["local", "open"],
      interval: ["2", "3", 2.5, ""],
      ids,
      idsType: ["str", "env"],
      events: [[], ["started"], ["stopped"], ["running", "stopped"], ["succeeded", "failed"]],
      initial: [true, false],
      where: ["local", "cloud", "both", ""],
    };
    const scanner = new SecretScanner([emulator().credentials.apiKey, "fuzz-watch-token-5521"]);
    const outcomes = { watching: 0, refused: 0 };
    let unhandled = 0;
    const onUnhandled = (): void => {
      unhandled++;
    };
    process.on("unhandledRejection", onUnhandled);
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const random = mulberry32(20261124 + round);
        const flow: FlowNode[] = [{ id: TAB, type: "tab" }, configNode(emulator(), { localRpm: "0", openRpm: "0" })];
        const watchIds: string[] = [];
        for (let index = 0; index < WATCHES_PER_ROUND; index++) {
          const id = `watch-${round}-${index}`;
          watchIds.push(id);
          const settings = Object.fromEntries(Object.entries(valid).map(([name, choices]) => [name, random() < 0.88 ? pick(random, choices) : pick(random, hostile)]));
          flow.push({ id, type: "morelogin-watch", z: TAB, server: CONFIG_ID, wires: [["out"]], ...settings });
        }
        flow.push({ id: "out", z: TAB, type: "helper" }, { id: "catch1", z: TAB, type: "catch", scope: null, uncaught: false, wires: [["caught"]] }, { id: "caught", z: TAB, type: "helper" });
        // Flows reach Node-RED as JSON. helper.load would compare the flow with what Node-RED made of
        // it (hostile values change, e.g. ${NAME} substitution): load the types, then deploy.
        await loadFlow([{ id: TAB, type: "tab" }], {});
        await redeploy(JSON.parse(JSON.stringify(flow)), credentialsFor(emulator()));
        const errors = new Map<string, string[]>();
        helper.getNode("caught").on("input", (msg: NodeMessage) => {
          scanner.scan(msg);
          const source = (msg as { error?: { source?: { id?: string }; message?: string } }).error;
          const from = String(source?.source?.id);
          errors.set(from, [...(errors.get(from) ?? []), String(source?.message)]);
        });
        helper.getNode("out").on("input", (msg: NodeMessage) => scanner.scan(msg));
        const statusesOf = (node: Node): Array<{ fill?: string; text?: string }> => {
          const spy = node.status as unknown as { args: unknown[][]; thisValues: unknown[] };
          return spy.args.filter((_, index) => spy.thisValues[index] === node).map((args) => args[0] as { fill?: string; text?: string });
        };
        const watching = (id: string): boolean => statusesOf(helper.getNode(id)).some((status) => status.fill === "green");
        await waitUntil(() => watchIds.every((id) => watching(id) || errors.has(id)), `every watch of round ${round} watches or refused its settings`);

        for (const id of watchIds) {
          const node = helper.getNode(id);
          const texts = errors.get(id) ?? [];
          const shown = statusesOf(node);
          outcomes[watching(id) ? "watching" : "refused"]++;
          if (watching(id)) {
            // A watch that polls may fail a poll later (a hostile ID list is refused before); never its settings.
            assert.ok(
              texts.every((text) => !text.startsWith("watch failed:")),
              `${id} watches and refused its settings: ${texts.join("; ")}`,
            );
          } else {
            assert.equal(texts.length, 1, `${id}: one error for its settings, got ${texts.length}`);
            assert.match(texts[0] ?? "", /^watch failed: .{3,400}$/s, `${id}: a clear error, not ${JSON.stringify((texts[0] ?? "").slice(0, 600))}`);
            assert.equal(shown.at(-1)?.fill, "red", `${id}: a red status`);
          }
          for (const status of shown) scanner.scan(status);
        }
        await helper.unload();
      }
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
    assert.ok(outcomes.watching > 20 && outcomes.refused > 20, `both outcomes were tried: ${JSON.stringify(outcomes)}`);
    assert.equal(unhandled, 0, "no unhandled rejection");
    assert.deepEqual(scanner.findings, [], "no secret in a message, error or status");
    assert.equal(JSON.stringify(Object.getOwnPropertyNames(Object.prototype).sort()), prototypeBefore, "Object.prototype untouched");
  });
});
