import assert from "node:assert/strict";
import { type BrowserSide, DEFAULT_RULES, IDENTITY_RULES, isPublicAddress, mismatchesOf, offsetOf, osOf } from "../../src/browser/identity-rules";
import { rulesOf } from "../../src/browser/identity";

/**
 * The identity action's judgement (src/browser/identity-rules.ts, issue 52): what a profile shows against
 * where its IP is seen. The browser side is given here; test/nodes/identity.test.ts reads it from a real
 * Chromium behind the emulator's proxies.
 */
const WINTER = new Date("2026-01-15T12:00:00Z");
const WINDOWS_UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const ANDROID_UA = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

const berlinBrowser: BrowserSide = {
  browserTimezone: "Europe/Berlin",
  languages: ["de-DE", "de"],
  webdriver: false,
  userAgent: WINDOWS_UA,
  platform: "Windows",
  webrtc: ["192.168.1.20"],
};
const germanExit = { exitIp: "198.51.100.7", country: "DE", timezone: "Europe/Berlin" };
const usExit = { exitIp: "198.51.100.8", country: "US", timezone: "America/New_York" };
const ALL = IDENTITY_RULES;

describe("identity rules: what a profile shows against where its IP is", () => {
  it("a Berlin browser behind a German exit has nothing to say", () => {
    assert.deepEqual(mismatchesOf(germanExit, berlinBrowser, {}, ALL, WINTER), []);
  });

  it("a Berlin browser behind a US exit: the time zone and, when counted, the language disagree", () => {
    assert.deepEqual(mismatchesOf(usExit, berlinBrowser, {}, ALL, WINTER), [
      { what: "timezone", expected: "America/New_York", seen: "Europe/Berlin" },
      { what: "language", expected: "US", seen: "de-DE" },
    ]);
    assert.deepEqual(
      mismatchesOf(usExit, berlinBrowser, {}, DEFAULT_RULES, WINTER).map((m) => m.what),
      ["timezone"],
      "the language does not count by default",
    );
  });

  it("zones with the same offset now agree; the same zones half a year apart may not", () => {
    assert.deepEqual(mismatchesOf({ ...germanExit, timezone: "Europe/Paris" }, berlinBrowser, {}, ["timezone"], WINTER), []);
    assert.equal(offsetOf("Europe/Berlin", WINTER), "+01:00");
    assert.equal(offsetOf("Europe/Berlin", new Date("2026-07-15T12:00:00Z")), "+02:00");
    assert.equal(offsetOf("UTC", WINTER), "+00:00");
    assert.equal(offsetOf("Not/AZone", WINTER), undefined);
  });

  it("the flow's expected country and IP are checked against the exit, an unknown exit country included", () => {
    assert.deepEqual(mismatchesOf(germanExit, berlinBrowser, { country: "us", ip: "203.0.113.1" }, ALL, WINTER), [
      { what: "country", expected: "us", seen: "DE" },
      { what: "ip", expected: "203.0.113.1", seen: "198.51.100.7" },
    ]);
    assert.deepEqual(mismatchesOf(germanExit, berlinBrowser, { country: "de", ip: "198.51.100.7" }, ALL, WINTER), []);
    assert.deepEqual(
      mismatchesOf({ exitIp: germanExit.exitIp }, berlinBrowser, { country: "DE" }, ALL, WINTER),
      [{ what: "country", expected: "DE", seen: "" }],
      "a country the echo service did not give cannot be confirmed",
    );
  });

  it("WebRTC: a public address that is not the exit is a leak; private, loopback and the exit itself are not", () => {
    const leaking = { ...berlinBrowser, webrtc: ["192.168.1.20", "10.0.0.3", "127.0.0.1", "198.51.100.7", "203.0.113.99"] };
    assert.deepEqual(mismatchesOf(germanExit, leaking, {}, ALL, WINTER), [{ what: "webrtc", expected: "198.51.100.7", seen: "203.0.113.99" }]);
    assert.equal(isPublicAddress("172.20.0.1"), false);
    assert.equal(isPublicAddress("172.32.0.1"), true);
    assert.equal(isPublicAddress("fe80::1"), false);
  });

  it("webdriver on, and a user agent of another system than the platform or the flow's system", () => {
    assert.deepEqual(mismatchesOf(germanExit, { ...berlinBrowser, webdriver: true }, {}, ALL, WINTER), [{ what: "webdriver", expected: "false", seen: "true" }]);
    assert.deepEqual(mismatchesOf(germanExit, { ...berlinBrowser, platform: "Linux x86_64" }, {}, ALL, WINTER), [{ what: "platform", expected: "Windows", seen: "Linux" }]);
    assert.deepEqual(mismatchesOf(germanExit, berlinBrowser, { os: "macos" }, ALL, WINTER), [{ what: "platform", expected: "macOS", seen: "Windows" }]);
    assert.deepEqual(mismatchesOf(germanExit, { ...berlinBrowser, userAgent: ANDROID_UA, platform: "Linux armv8l" }, {}, ALL, WINTER), [], "an Android phone's platform says Linux");
    assert.equal(osOf("MacIntel"), "macOS");
  });

  it("rules not counted are not reported", () => {
    const everything = { ...berlinBrowser, webdriver: true, webrtc: ["203.0.113.99"] };
    assert.deepEqual(
      mismatchesOf(usExit, everything, {}, ["webdriver"], WINTER).map((m) => m.what),
      ["webdriver"],
    );
  });

  it("the node's rules: blank is the defaults; names by commas or as an array; an unknown name is refused, naming the rules", () => {
    assert.deepEqual(rulesOf(""), [...DEFAULT_RULES]);
    assert.deepEqual(rulesOf(" timezone , language,timezone"), ["timezone", "language"]);
    assert.deepEqual(rulesOf(["webrtc"]), ["webrtc"]);
    assert.throws(() => rulesOf("timezone, fonts"), /fonts is not a rule; the rules are timezone, language, country, ip, webrtc, webdriver, platform/);
    assert.throws(() => rulesOf(3), /rules must be names/);
  });
});
