export { BrowserSteps, type StepOutcome, type StepRequest } from "./session";
export { firstAddress, type EndpointCandidate } from "./endpoint";
export { BROWSER_ACTIONS, CONTENT_FORMATS, WAIT_UNTIL, type BrowserAction, type StepInputs } from "./steps";
export type { PageHandle } from "./tabs";
