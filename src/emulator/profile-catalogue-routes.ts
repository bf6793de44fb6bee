import { ok, type Reply } from "./replies";
import { ParamError, readChoice, readText, requireFields, type Body } from "./request-fields";
import type { Route } from "./routes";

/**
 * The desktop client's catalogues for building a profile (the browser spec's "Fingerprint & Device
 * Config"): kernel versions, user agents, resolutions, time zones and languages, platforms and phone
 * models. The shapes are the spec's; the entries are the emulator's own, fixed so runs repeat.
 */

const OS = { windows: 1, macos: 2, android: 3, ios: 4 } as const;
const OS_CHOICES = [OS.windows, OS.macos, OS.android, OS.ios];
const CHROME = 1;
const FIREFOX = 2;

const KERNELS = [
  { browserType: CHROME, versions: [142, 141, 140, 139, 138] },
  { browserType: FIREFOX, versions: [144, 143] },
];

const RESOLUTIONS: Readonly<Record<number, readonly string[]>> = {
  [OS.windows]: ["1920x1080", "1600x900", "1536x864", "1366x768", "2560x1440"],
  [OS.macos]: ["1440x900", "1512x982", "1728x1117", "2560x1600"],
  [OS.android]: ["412x915", "393x873", "360x800"],
  [OS.ios]: ["390x844", "393x852", "430x932"],
};

const CHROME_UA: Readonly<Record<number, string>> = {
  [OS.windows]: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36",
  [OS.macos]: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36",
  [OS.android]: "Mozilla/5.0 (Linux; Android 14; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Mobile Safari/537.36",
  [OS.ios]: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/142.0.0.0 Mobile/15E148 Safari/604.1",
};

const FIREFOX_UA: Readonly<Record<number, string>> = {
  [OS.windows]: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:144.0) Gecko/20100101 Firefox/144.0",
  [OS.macos]: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:144.0) Gecko/20100101 Firefox/144.0",
};

const TIME_ZONES = ["America/New_York", "America/Los_Angeles", "Europe/London", "Europe/Berlin", "Asia/Shanghai", "Asia/Tokyo"];
const LANGUAGES = ["en-US", "en-GB", "de-DE", "fr-FR", "zh-CN", "ja-JP"];

const PLATFORMS = [
  {
    name: "Amazon",
    groups: "0",
    sites: [
      ["amazon.com", "US"],
      ["amazon.de", "DE"],
      ["amazon.co.jp", "JP"],
    ],
  },
  {
    name: "eBay",
    groups: "1",
    sites: [
      ["ebay.com", "US"],
      ["ebay.co.uk", "GB"],
    ],
  },
  { name: "Facebook", groups: "2", sites: [["facebook.com", ""]] },
] as const;

const MOBILE_DEVICES = [
  { name: "Samsung Galaxy S24", resolution: "412x915", os: OS.android, platform: "Android" },
  { name: "Google Pixel 8", resolution: "412x915", os: OS.android, platform: "Android" },
  { name: "iPhone 15", resolution: "393x852", os: OS.ios, platform: "iPhone" },
  { name: "iPhone 15 Pro Max", resolution: "430x932", os: OS.ios, platform: "iPhone" },
];

/** Catalogue IDs: fixed 19-digit decimal strings, one range per catalogue. */
const catalogueId = (range: number, index: number): string => (1_900_000_000_000_000_000n + BigInt(range) * 1_000_000n + BigInt(index + 1)).toString();

function requiredOs(body: Body): number {
  requireFields(body, ["os"]);
  return readChoice(body, "os", OS_CHOICES) ?? OS.windows;
}

function resolutionsOf(os: number): { id: string; value: string }[] {
  return (RESOLUTIONS[os] ?? []).map((value, index) => ({ id: catalogueId(os, index), value }));
}

/** `data` is null; the user agent and a resolution ride at the envelope's top level (the spec). */
function userAgent(body: Body): Reply {
  const os = requiredOs(body);
  readText(body, "osVersion");
  const vendor = readChoice(body, "vendor", [CHROME, FIREFOX]) ?? CHROME;
  const ua = vendor === FIREFOX ? FIREFOX_UA[os] : CHROME_UA[os];
  if (ua === undefined) throw new ParamError("Firefox is only available on Windows and macOS");
  const reply = ok(null);
  const [resolution] = resolutionsOf(os);
  return { ...reply, payload: { ...(reply.payload as object), ua, resolution } };
}

function platforms(): Reply {
  return ok(
    PLATFORMS.map((platform, p) => ({
      id: catalogueId(10, p),
      categoryId: catalogueId(11, 0),
      groupName: platform.name,
      groups: platform.groups,
      isCustomer: false,
      logo: "",
      name: platform.name,
      orderNo: String(p + 1),
      sites: platform.sites.map(([host, country], s) => ({
        id: catalogueId(20 + p, s),
        host,
        name: host,
        nameBak: host,
        logo: "",
        url: `https://www.${host}`,
        isDefault: s === 0,
        country,
      })),
    })),
  );
}

/** The time zone or language a catalogue ID of `env/base/list` stands for; undefined for an ID it never gave. */
export function catalogueValue(kind: "timeZone" | "language", id: string): string | undefined {
  const [range, list] = kind === "timeZone" ? [30, TIME_ZONES] : [31, LANGUAGES];
  return list.find((_, index) => catalogueId(range, index) === id.trim());
}

function timeZonesAndLanguages(body: Body): Reply {
  requiredOs(body);
  return ok({
    time_zone_list: TIME_ZONES.map((value, index) => ({ id: catalogueId(30, index), value })),
    language_list: LANGUAGES.map((value, index) => ({ id: catalogueId(31, index), value })),
  });
}

export function profileCatalogueRoutes(): Route[] {
  const post = (path: string, handle: (body: Body) => Reply): Route => ({ method: "POST", path, auth: true, handle: ({ body }) => handle(body) });
  const get = (path: string, handle: () => Reply): Route => ({ method: "GET", path, auth: true, handle });
  return [
    get("/api/env/advanced/ua/versions", () => ok(KERNELS)),
    post("/api/env/advanced/ua/get", userAgent),
    post("/api/env/base/resolution/list", (body) => {
      const os = requiredOs(body);
      readText(body, "ua");
      return ok(resolutionsOf(os));
    }),
    get("/api/system/platform/list", platforms),
    post("/api/env/base/list", timeZonesAndLanguages),
    post("/api/env/base/mobile/devices", () => ok(MOBILE_DEVICES.map((device, index) => ({ id: catalogueId(40, index), ...device })))),
  ];
}
