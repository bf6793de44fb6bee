import assert from "node:assert/strict";
import { formatCookies, parseCookies } from "../../src/browser/cookie-formats";
import type { CookieToSet } from "../../src/browser/cookie-list";
import { cookiePlaceOf } from "../../src/browser/inputs";

/**
 * The browser node's cookie formats (src/browser/cookie-formats.ts, issue 50): the same cookies in every
 * format users have give the same cookies to set; a bad entry or line fails the whole input, naming where,
 * never a cookie's value.
 */
const SECRET = "s3cret-session-value";
const EXPIRES = 1_900_000_000;

/** A login cookie for example.com and its subdomains, and a session cookie of one host and path. */
const EXPECTED: CookieToSet[] = [
  { name: "sid", value: SECRET, domain: ".example.com", path: "/", expires: EXPIRES, httpOnly: true, secure: true },
  { name: "lang", value: "en", domain: "example.com", path: "/docs", expires: -1, httpOnly: false, secure: false },
];

/** As read cookies (Playwright) gives them, sameSite left out: a cookie file has no column for it. */
const PLAYWRIGHT = EXPECTED.map((cookie) => ({ ...cookie }));

/** As EditThisCookie and Cookie-Editor export them (chrome.cookies fields). */
const EXTENSION = [
  {
    domain: ".example.com",
    expirationDate: EXPIRES,
    hostOnly: false,
    httpOnly: true,
    name: "sid",
    path: "/",
    sameSite: "unspecified",
    secure: true,
    session: false,
    storeId: "0",
    value: SECRET,
    id: 1,
  },
  { domain: "example.com", hostOnly: true, httpOnly: false, name: "lang", path: "/docs", sameSite: "unspecified", secure: false, session: true, storeId: "0", value: "en", id: 2 },
];

/** curl's cookies.txt, with a comment, blank lines and Windows line ends. */
const NETSCAPE = [
  "# Netscape HTTP Cookie File",
  "# https://curl.se/docs/http-cookies.html",
  "",
  `#HttpOnly_.example.com\tTRUE\t/\tTRUE\t${EXPIRES}\tsid\t${SECRET}`,
  "   ",
  "# lang is a session cookie: expiry 0",
  "example.com\tFALSE\t/docs\tFALSE\t0\tlang\ten",
  "",
].join("\r\n");

/** Runs `run` and replies the error text it throws, checking that the secret is nowhere in it. */
function refusal(run: () => unknown): string {
  let text: string | undefined;
  try {
    run();
  } catch (error) {
    text = error instanceof Error ? error.message : String(error);
  }
  assert.ok(text !== undefined, "the input was refused");
  assert.ok(!text.includes(SECRET), `no cookie value in ${JSON.stringify(text)}`);
  return text;
}

describe("browser: cookies in every format users have (issue 50)", () => {
  it("an array, its JSON text, an extension's export, a storageState object, a Netscape file and that file as a Buffer give the same cookies", () => {
    const given: Array<[string, unknown]> = [
      ["Playwright array", PLAYWRIGHT],
      ["JSON text", JSON.stringify(PLAYWRIGHT, null, 2)],
      ["extension export", EXTENSION],
      ["extension export as JSON text", `\uFEFF${JSON.stringify(EXTENSION)}`],
      ["storageState", { cookies: PLAYWRIGHT, origins: [] }],
      ["Netscape", NETSCAPE],
      ["Netscape with LF line ends", NETSCAPE.replaceAll("\r\n", "\n")],
      ["Netscape as a Buffer (a read file node)", Buffer.from(NETSCAPE)],
      [
        "Netscape indented, each line ending in one more tab",
        NETSCAPE.split("\r\n")
          .map((line) => (line.includes("\t") ? `  ${line}\t` : line))
          .join("\n"),
      ],
    ];
    for (const [format, input] of given) assert.deepEqual(parseCookies(input), EXPECTED, format);
  });

  it("a name=value; … header takes the domain given (or a URL), as session cookies at /", () => {
    const session = { path: "/", expires: -1, httpOnly: false, secure: false };
    assert.deepEqual(parseCookies("Cookie: sid=a=b==; lang=en;", { domain: "example.com" }), [
      { name: "sid", value: "a=b==", domain: "example.com", ...session },
      { name: "lang", value: "en", domain: "example.com", ...session },
    ]);
    assert.deepEqual(parseCookies("sid=1", { domain: ".example.com" }), [{ name: "sid", value: "1", domain: ".example.com", ...session }]);
    assert.deepEqual(parseCookies("sid=1", { url: "https://shop.example.com/app/start" }), [{ name: "sid", value: "1", domain: "shop.example.com", ...session, path: "/app/", secure: true }]);
  });

  it("a header without a domain is refused, saying what to set", () => {
    assert.equal(
      refusal(() => parseCookies(`sid=${SECRET}; lang=en`)),
      "msg.payload is a name=value; … header, which says nothing of the site it is for: set the node's Cookie domain (e.g. example.com)",
    );
    assert.equal(
      refusal(() => parseCookies(`sid=${SECRET}; lang`, { domain: "example.com" })),
      "msg.payload is neither JSON, a Netscape cookie file (fields separated by tabs) nor a name=value; … header: its part 2 has no `=`",
    );
  });

  it("an extension's sameSite values map to Playwright's; unspecified (or none given) leaves the browser's default", () => {
    const sameSites = ["no_restriction", "lax", "strict", "unspecified", null, "None", "Lax", "STRICT", undefined];
    const cookies = parseCookies(sameSites.map((sameSite, index) => ({ name: `c${index}`, value: "v", domain: "example.com", sameSite })));
    assert.deepEqual(
      cookies.map((cookie) => cookie.sameSite),
      ["None", "Lax", "Strict", undefined, undefined, "None", "Lax", "Strict", undefined],
    );
    assert.ok(
      cookies.every((cookie) => !Object.hasOwn(cookie, "sameSite") || cookie.sameSite !== undefined),
      "an unset sameSite is left out, not undefined",
    );
  });

  it("session cookies: an export's session flag wins over its date; a cookie file's expiry 0, or an object's; no expiry at all", () => {
    const cookies = parseCookies([
      { name: "a", value: "1", domain: "example.com", session: true, expirationDate: EXPIRES },
      { name: "b", value: "2", domain: "example.com" },
      { name: "c", value: "3", domain: "example.com", expiry: EXPIRES },
      { name: "d", value: "4", domain: "example.com", expires: -1 },
      { name: "e", value: "5", domain: "example.com", expires: 0 },
      { name: "f", value: "6", domain: "example.com", expirationDate: 0 },
    ]);
    assert.deepEqual(
      cookies.map((cookie) => cookie.expires),
      [-1, -1, EXPIRES, -1, -1, -1],
    );
    assert.equal(parseCookies("example.com\tFALSE\t/\tFALSE\t0\ta\t1")[0]?.expires, -1);
  });

  it("a cookie file's include-subdomains column sets the leading dot; an empty value may lack its last tab", () => {
    const cookies = parseCookies(["example.com\tTRUE\t/\tFALSE\t0\tall\t1", ".example.com\tFALSE\t/\tFALSE\t0\tone\t2", "127.0.0.1\tTRUE\t\tfalse\t0\tempty"].join("\n"));
    assert.deepEqual(
      cookies.map(({ name, value, domain, path }) => ({ name, value, domain, path })),
      [
        { name: "all", value: "1", domain: ".example.com", path: "/" },
        { name: "one", value: "2", domain: "example.com", path: "/" },
        { name: "empty", value: "", domain: "127.0.0.1", path: "/" },
      ],
    );
  });

  it("a malformed cookie-file line fails the whole file, naming its line number and never a value", () => {
    const good = `.example.com\tTRUE\t/\tTRUE\t${EXPIRES}\tsid\t${SECRET}`;
    const cases: Array<[string, string]> = [
      [`.example.com TRUE / TRUE 0 sid ${SECRET}`, " has 1 field separated by tabs; a cookie line has 7: domain, include subdomains, path, secure, expiry, name, value"],
      [`.example.com\tTRUE\t/\tTRUE\tsid\t${SECRET}\textra\tmore`, " has 8 fields separated by tabs; a cookie line has 7: domain, include subdomains, path, secure, expiry, name, value"],
      [`.example.com\t${SECRET}\t/\tTRUE\t0\tsid\tv`, ": its second field (include subdomains) must be TRUE or FALSE"],
      [`.example.com\tTRUE\t/\tyes\t0\tsid\t${SECRET}`, ": its fourth field (secure) must be TRUE or FALSE"],
      [`.example.com\tTRUE\t/\tTRUE\t${SECRET}\tsid\tv`, ": its fifth field (expiry) must be seconds since 1970, 0 for a session cookie"],
      [`.example.com\tTRUE\t/\tTRUE\t0\t\t${SECRET}`, " has no name (its sixth field)"],
      [`\tTRUE\t/\tTRUE\t0\tsid\t${SECRET}`, " has no domain (its first field)"],
    ];
    for (const [line, why] of cases) {
      const text = ["# Netscape HTTP Cookie File", "", good, line, good].join("\r\n");
      const message = refusal(() => parseCookies(text));
      assert.equal(message, `line 4 of msg.payload (a Netscape cookie file)${why}`, line);
    }
  });

  it("a bad entry of a list fails the whole list, naming its index (in msg.payload, its cookies or its JSON text)", () => {
    const list = [...PLAYWRIGHT, { name: "broken", value: 42, domain: "example.com" }];
    assert.equal(
      refusal(() => parseCookies(list)),
      "msg.payload[2].value must be a string, got a number",
    );
    assert.equal(
      refusal(() => parseCookies(JSON.stringify(list))),
      "msg.payload[2].value must be a string, got a number",
    );
    assert.equal(
      refusal(() => parseCookies({ cookies: [PLAYWRIGHT[0], { value: SECRET, domain: "example.com" }] })),
      "msg.payload.cookies[1] has no `name`",
    );
    assert.equal(
      refusal(() => parseCookies([{ ...EXTENSION[0], expirationDate: "tomorrow" }])),
      "msg.payload[0].expirationDate must be seconds since 1970 (or -1 for a session cookie), got a string",
    );
    assert.equal(
      refusal(() => parseCookies([{ name: "sid", value: SECRET, url: "file:///etc/passwd" }])),
      "msg.payload[0].url must be an http:// or https:// address",
    );
    assert.equal(
      refusal(() => parseCookies([{ name: "sid", value: SECRET }], { from: "the profile's cookies" })),
      "the profile's cookies[0] has no `domain` (with a `path`) or `url`",
    );
  });

  it("JSON that does not parse says where, not what it holds; other values say what they are", () => {
    assert.equal(
      refusal(() => parseCookies(`[\n  {"name": "sid", "value": "${SECRET}" "domain": "example.com"}\n]`)),
      "msg.payload starts like JSON but is not valid JSON (line 2, column 51)",
    );
    assert.match(
      refusal(() => parseCookies(`[{"name": "sid", "value": "${SECRET}"`)),
      /^msg\.payload starts like JSON but is not valid JSON/,
    );
    assert.equal(
      refusal(() => parseCookies("  \n ")),
      "msg.payload is empty text: no cookies in it",
    );
    assert.equal(
      refusal(() => parseCookies(42)),
      "msg.payload must be cookies: an array of cookie objects (as read cookies gives, or a browser extension's JSON export), its JSON text, a Netscape cookie file (cookies.txt) or a name=value; … header, got a number",
    );
  });

  it("an entry without a domain takes the domain given, as a header does", () => {
    assert.deepEqual(parseCookies([{ name: "sid", value: "1" }], { domain: "example.com" }), [
      { name: "sid", value: "1", domain: "example.com", path: "/", expires: -1, httpOnly: false, secure: false },
    ]);
  });

  it("round trip: read cookies' JSON to a Netscape file and back gives the same cookies, sameSite aside, the expiry in whole seconds", () => {
    const [sid, lang] = EXPECTED as [CookieToSet, CookieToSet];
    const read: CookieToSet[] = [
      { ...sid, expires: EXPIRES + 0.75, sameSite: "None" },
      { ...lang, sameSite: "Lax" },
    ];
    assert.deepEqual(formatCookies(read, "json"), read, "json is the array as read cookies gives it");
    const text = formatCookies(read, "netscape");
    assert.match(text, /^# Netscape HTTP Cookie File\n/);
    assert.ok(text.includes(`#HttpOnly_.example.com\tTRUE\t/\tTRUE\t${EXPIRES}\tsid\t${SECRET}\n`), text);
    assert.ok(text.includes("example.com\tFALSE\t/docs\tFALSE\t0\tlang\ten\n"), text);
    assert.deepEqual(parseCookies(text), EXPECTED);
    assert.deepEqual(
      formatCookies([], "netscape")
        .trim()
        .split("\n")
        .every((line) => line.startsWith("#")),
      true,
      "no cookies: only the comments",
    );
    assert.deepEqual(parseCookies(formatCookies([], "netscape")), []);
  });

  it("the node's Cookie domain: a host, or an http(s) address; anything else is refused", () => {
    assert.deepEqual(cookiePlaceOf(undefined), {});
    assert.deepEqual(cookiePlaceOf("  "), {});
    assert.deepEqual(cookiePlaceOf(" example.com "), { domain: "example.com" });
    assert.deepEqual(cookiePlaceOf(".例子.cn"), { domain: ".例子.cn" });
    assert.deepEqual(cookiePlaceOf("127.0.0.1"), { domain: "127.0.0.1" });
    assert.deepEqual(cookiePlaceOf("https://example.com/app/"), { url: "https://example.com/app/" });
    for (const bad of ["example.com/app", "a b", 42]) {
      assert.throws(() => cookiePlaceOf(bad), {
        message: `cookieDomain must be a domain such as example.com (.example.com for its subdomains too) or an http(s):// address, got ${typeof bad === "string" ? JSON.stringify(bad) : "42"}`,
      });
    }
  });
});
