/** The batch's engine: no Node-RED here (src/nodes/morelogin-batch.ts wires it to the node). */
export { originOf, storableItems, itemIdOf } from "./items";
export { LocalBatchWork, type LocalWorkOptions } from "./local-work";
export { statusOf, durationText, type BatchStatus } from "./progress";
export type { BatchState } from "./records";
export { BATCH_COMMANDS, BatchRunner, type BatchCommand, type BatchPorts, type BatchTag } from "./runner";
export type { BatchFailure, BatchHandover, BatchHeader, BatchInterruption, BatchProgress, BatchSettings, QueuedList, Translate, WorkerFigures } from "./types";
export type { BatchWork, DroppedList, Ending, TakenItem, Trouble } from "./work";
