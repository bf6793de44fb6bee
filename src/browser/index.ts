export { BrowserSteps, type StepOutcome, type StepRequest } from "./session";
export { firstAddress, type EndpointCandidate } from "./endpoint";
export { BROWSER_ACTIONS, CONTENT_FORMATS, HUMAN_ACTIONS, WAIT_UNTIL, type BrowserAction } from "./steps";
export type { StepInputs } from "./step-types";
export type { PageHandle } from "./tabs";
export type { UploadPlaces } from "./upload-file";
