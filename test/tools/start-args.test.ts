import assert from "node:assert/strict";
import { demoEmulatorArgs, parseStartArgs } from "../../tools/start-args";

/** `npm start -- <options>`: its own (--fresh, --help), the emulator's it reads too, and the rest handed on. */
describe("npm start: its options", () => {
  it("takes --fresh and hands every other option to the emulator, in order", () => {
    const args = parseStartArgs(["--profiles", "500", "--fresh", "--rate-limit=120", "--rate-limit-retry-after"]);
    assert.equal(args.fresh, true);
    assert.deepEqual(args.emulatorArgs, ["--profiles", "500", "--rate-limit=120", "--rate-limit-retry-after"]);
  });

  it("reads the ports, credentials and browser it gives the emulator and the config nodes itself, with a space or =", () => {
    const args = parseStartArgs(["--local-port", "40200", "--open-port=40201", "--api-id", "id-1", "--api-key=key-1", "--local-token", "token-1", "--browser", "/usr/bin/chromium"]);
    assert.deepEqual(
      { localPort: args.localPort, openPort: args.openPort, apiId: args.apiId, apiKey: args.apiKey, localToken: args.localToken, browser: args.browser },
      { localPort: 40200, openPort: 40201, apiId: "id-1", apiKey: "key-1", localToken: "token-1", browser: "/usr/bin/chromium" },
    );
    assert.deepEqual(args.emulatorArgs, [], "not passed twice");
    assert.equal(args.fresh, false);
  });

  it("asks the emulator for the demo's data (every cloud phone off at start) unless given --phones-on, with a space or =", () => {
    assert.deepEqual(demoEmulatorArgs(parseStartArgs(["--profiles", "500", "--seed", "3"]).emulatorArgs), ["--phones-on", "0"]);
    assert.deepEqual(demoEmulatorArgs(parseStartArgs(["--phones-on", "4"]).emulatorArgs), []);
    assert.deepEqual(demoEmulatorArgs(parseStartArgs(["--phones-on=4"]).emulatorArgs), []);
  });

  it("refuses a port that is not one and an option of its own without a value", () => {
    assert.throws(() => parseStartArgs(["--local-port", "abc"]), /--local-port must be a port from 0 to 65535, got "abc"/);
    assert.throws(() => parseStartArgs(["--api-key"]), /--api-key needs a value/);
    assert.throws(() => parseStartArgs(["--api-id", "--fresh"]), /--api-id needs a value/);
  });
});
