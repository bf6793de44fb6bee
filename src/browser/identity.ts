import type { Page } from "playwright-core";
import { DEFAULT_ECHO_URL, describeValue, readEchoReply } from "../client";
import { BrowserStepError, inputError } from "./errors";
import { DEFAULT_RULES, IDENTITY_RULES, type IdentityRule, mismatchesOf, type Expected } from "./identity-rules";
import { probeBrowser } from "./identity-probe";
import { urlToOpen } from "./inputs";
import type { StepContext, StepInputs, StepResult } from "./step-types";

/** How long WebRTC may gather candidates before the probe reports what it has. */
const GATHER_MS = 3_000;

/** `rules`: the names that count, separated by commas or as an array; blank = DEFAULT_RULES. */
export function rulesOf(value: unknown): IdentityRule[] {
  if (value === undefined || value === "") return [...DEFAULT_RULES];
  const names = typeof value === "string" ? value.split(",") : Array.isArray(value) ? value : undefined;
  if (!names || names.some((name) => typeof name !== "string")) throw inputError(`rules must be names separated by commas (timezone, webrtc) or an array of names, got ${describeValue(value)}`);
  const trimmed = (names as string[]).map((name) => name.trim()).filter((name) => name !== "");
  const unknown = trimmed.filter((name) => !IDENTITY_RULES.includes(name as IdentityRule));
  if (unknown.length > 0) throw inputError(`rules: ${unknown.join(", ")} ${unknown.length === 1 ? "is" : "are"} not a rule; the rules are ${IDENTITY_RULES.join(", ")}`);
  return [...new Set(trimmed as IdentityRule[])];
}

function optionalText(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") throw inputError(`${name} must be a string, got ${describeValue(value)}`);
  return value.trim() || undefined;
}

function stunUrlOf(value: unknown): string {
  const given = optionalText(value, "stunUrl") ?? "";
  if (given !== "" && !/^stuns?:/i.test(given)) throw inputError(`stunUrl must be a stun: address (stun:stun.example.com:3478), got ${describeValue(value)}`);
  return given;
}

/** Refuses unusable identity inputs before the browser is looked for. */
export function checkIdentityInputs(inputs: StepInputs): void {
  if (inputs.echoUrl !== undefined && inputs.echoUrl !== "") urlToOpen(inputs.echoUrl);
  rulesOf(inputs.rules);
  stunUrlOf(inputs.stunUrl);
  optionalText(inputs.expectCountry, "expectCountry");
  optionalText(inputs.expectIp, "expectIp");
  optionalText(inputs.os, "os");
}

/**
 * In a tab of its own (closed again), opens the echo service through the profile's own network path
 * (so its proxy) and reads where it was seen from, then what the page tells of the browser; judges both.
 */
export async function identity(page: Page, inputs: StepInputs, { timeoutMs }: StepContext): Promise<StepResult> {
  const echoUrl = inputs.echoUrl === undefined || inputs.echoUrl === "" ? DEFAULT_ECHO_URL : urlToOpen(inputs.echoUrl);
  const expected: Expected = { country: optionalText(inputs.expectCountry, "expectCountry"), ip: optionalText(inputs.expectIp, "expectIp"), os: optionalText(inputs.os, "os") };
  const tab = await page.context().newPage();
  try {
    const response = await tab.goto(echoUrl, { waitUntil: "load", timeout: timeoutMs });
    const host = new URL(echoUrl).host;
    if (!response) throw new BrowserStepError("network", `the IP echo service ${host} gave no reply`);
    if (!response.ok()) throw new BrowserStepError("network", `the IP echo service ${host} answered HTTP ${response.status()}`);
    const exit = readEchoReply(await response.text());
    if (exit.exitIp === undefined) throw new BrowserStepError("page", `the IP echo service ${host} gave no address the node can read (ip or query): name another service in IP echo`);
    const browser = await probeBrowser(tab, stunUrlOf(inputs.stunUrl), Math.min(GATHER_MS, timeoutMs));
    const mismatches = mismatchesOf(exit, browser, expected, rulesOf(inputs.rules));
    const payload = { ok: mismatches.length === 0, exitIp: exit.exitIp ?? null, country: exit.country ?? null, timezone: exit.timezone ?? null, ...browser, mismatches };
    return { payload, detail: mismatches.length === 0 ? "ok" : mismatches.map((mismatch) => mismatch.what).join(", ") };
  } finally {
    await tab.close().catch(() => undefined);
  }
}
