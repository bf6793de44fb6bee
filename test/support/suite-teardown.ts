/** The end of a suite around a real Node-RED process. */
import { rmSync } from "node:fs";
import type { Emulator } from "../../src/emulator";
import type { RunningNodeRed } from "../../tools/sandbox";
import type { Recorder } from "./recorder";

/** What a suite started; any process may be missing (not started yet, or stopped by a test). */
export interface SuiteParts {
  nodeRed?: RunningNodeRed;
  recorder?: Recorder;
  emulator?: Emulator;
  /** The suite's temporary folder. */
  work: string;
}

/** Stops Node-RED first (its flows still call the others), then the recorder and the emulator, and removes the suite's folder. */
export async function tearDown({ nodeRed, recorder, emulator, work }: SuiteParts): Promise<void> {
  await nodeRed?.stop();
  await recorder?.close();
  await emulator?.close();
  rmSync(work, { recursive: true, force: true });
}
