import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator, type Emulator, type EmulatorOptions } from "../../src/emulator";
import { packPackage, prepareUserDir, startNodeRed, type RunningNodeRed } from "../../tools/sandbox";
import { DebugSidebar } from "./debug-sidebar";
import { nodeBinary, redJs } from "./runtime";

/** What an example suite runs against: its work folder (the user folder is `<work>/user`), the emulator, Node-RED and its Debug sidebar. */
export interface InstalledExample {
  work: string;
  emulator: Emulator;
  nodeRed: RunningNodeRed;
  sidebar: DebugSidebar;
}

/**
 * Mocha hooks for a suite that runs an example as a user does: the packed package installed into a fresh
 * user folder, an emulator with `emulatorOptions`, a Node-RED of the runtime under test in that folder (its
 * working directory, as an example's relative sample path expects) and its Debug sidebar; all ended after.
 */
export function useInstalledExample(prefix: string, emulatorOptions: EmulatorOptions): () => InstalledExample {
  let installed: InstalledExample | undefined;
  let work: string | undefined;
  let emulator: Emulator | undefined;
  let nodeRed: RunningNodeRed | undefined;
  let sidebar: DebugSidebar | undefined;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), prefix));
    const tarball = await packPackage(join(work, "pack"));
    await prepareUserDir(join(work, "user"), tarball, { fresh: true });
    emulator = await startEmulator(emulatorOptions);
    nodeRed = await startNodeRed({ userDir: join(work, "user"), node: nodeBinary, redJs });
    sidebar = await DebugSidebar.open(nodeRed.url);
    installed = { work, emulator, nodeRed, sidebar };
  });

  after(async () => {
    sidebar?.close();
    await nodeRed?.stop();
    await emulator?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  return () => {
    if (!installed) throw new Error("the example's Node-RED is not running: used outside its suite's tests");
    return installed;
  };
}
