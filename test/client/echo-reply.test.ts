import assert from "node:assert/strict";
import { readEchoReply } from "../../src/client";

/**
 * IP-echo replies (src/client/echo-reply.ts, issue 52): the proxy check and the browser's identity check
 * read the common services' replies as they come, others through field paths.
 */
describe("IP-echo replies, as the common services give them", () => {
  it("ipinfo.io: ip, a two-letter country, a time zone name", () => {
    const reply = { ip: "198.51.100.7", city: "Berlin", country: "DE", loc: "52.5,13.4", timezone: "Europe/Berlin" };
    assert.deepEqual(readEchoReply(JSON.stringify(reply)), { exitIp: "198.51.100.7", country: "DE", timezone: "Europe/Berlin" });
  });

  it("ip-api.com: query, the country's name beside countryCode (the code wins)", () => {
    const reply = { status: "success", country: "United States", countryCode: "US", timezone: "America/New_York", query: "198.51.100.8" };
    assert.deepEqual(readEchoReply(reply), { exitIp: "198.51.100.8", country: "US", timezone: "America/New_York" });
  });

  it("ipwho.is and ipapi.co: a time zone as {id}, country_code in lower case", () => {
    assert.deepEqual(readEchoReply({ ip: "2001:db8::1", country_code: "fr", timezone: { id: "Europe/Paris", utc: "+01:00" } }), {
      exitIp: "2001:db8::1",
      country: "FR",
      timezone: "Europe/Paris",
    });
  });

  it("ipify's plain text is the address alone; text that is neither JSON nor an address is nothing", () => {
    assert.deepEqual(readEchoReply("198.51.100.9\n"), { exitIp: "198.51.100.9" });
    assert.deepEqual(readEchoReply("<html>blocked</html>"), {});
  });

  it("another service's fields through dotted paths; a path that is not there is undefined, never another field", () => {
    const reply = { data: { addr: "198.51.100.10", geo: { cc: "JP", tz: "Asia/Tokyo" } }, ip: "wrong" };
    assert.deepEqual(readEchoReply(reply, { ip: "data.addr", country: "data.geo.cc", timezone: "data.geo.tz" }), { exitIp: "198.51.100.10", country: "JP", timezone: "Asia/Tokyo" });
    assert.deepEqual(readEchoReply(reply, { ip: "data.nothing", country: "__proto__.x" }), { exitIp: undefined, country: undefined, timezone: undefined });
  });
});
