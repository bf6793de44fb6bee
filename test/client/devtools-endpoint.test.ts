import assert from "node:assert/strict";
import { cdpUrlFor, onDebuggerHost } from "../../src/client";
import { parseBaseUrl } from "../../src/client/urls";

describe("client: where a started browser's DevTools endpoint is reached", () => {
  const loopback = parseBaseUrl("http://127.0.0.1:40000", "Local API URL");
  const server = parseBaseUrl("http://morelogin-server.lan:40000", "Local API URL");

  it("is 127.0.0.1 when the Local API is on this machine", () => {
    assert.equal(cdpUrlFor("61384", loopback), "http://127.0.0.1:61384");
    assert.equal(onDebuggerHost("ws://127.0.0.1:61384/devtools/browser/abc", loopback), "ws://127.0.0.1:61384/devtools/browser/abc");
  });

  it("is the Local API URL's host when that is another machine (a tunnel, MoreLogin's server edition)", () => {
    assert.equal(cdpUrlFor("61384", server), "http://morelogin-server.lan:61384");
    assert.equal(onDebuggerHost("ws://127.0.0.1:61384/devtools/browser/abc", server), "ws://morelogin-server.lan:61384/devtools/browser/abc");
  });

  it("has no URL for a debug port that is not a port", () => {
    assert.equal(cdpUrlFor("", server), undefined);
    assert.equal(cdpUrlFor("70000", loopback), undefined);
  });
});
