import { idSequence, mulberry32 } from "./prng";
import { dateText } from "./seed-parts";

/** Seeded automation (RPA) templates: the marketplace's and the team's own. */

export type TemplateSource = "MARKET" | "PERSONAL";

export interface Template {
  id: string;
  title: string;
  /** The template's variables as a JSON string (the spec's form), or null when it declares none. */
  parameter: string | null;
  description: string;
  appIconUrls: string[];
  sort: number;
  updateDate: string;
  source: TemplateSource;
}

type VariableType = "string" | "number" | "boolean" | "image" | "video";

/** One variable in the spec's form: {"type": ..., "extra": {"name", "type", "required", "defaultValue", "index"}}. */
function variables(list: readonly [key: string, name: string, type: VariableType, required: boolean][]): string {
  const entries = list.map(([key, name, type, required], i) => [key, { type, extra: { name, type, required, defaultValue: { enabled: false }, index: i + 1 } }]);
  return JSON.stringify(Object.fromEntries(entries));
}

const MARKET: readonly Omit<Template, "id" | "sort" | "updateDate" | "source" | "appIconUrls">[] = [
  {
    title: "Post a TikTok video",
    parameter: variables([
      ["videoDownloadUrl", "Select Video", "video", true],
      ["videoDescription", "Video Caption", "string", false],
      ["enableAIGC", "AI Label", "boolean", false],
    ]),
    description: "Uploads a video with a caption.",
  },
  {
    title: "Search and like posts",
    parameter: variables([
      ["keyword", "Keyword", "string", true],
      ["count", "Posts to like", "number", false],
    ]),
    description: "Searches a keyword and likes the first posts.",
  },
  { title: "Warm up: scroll the feed", parameter: variables([["minutes", "Minutes", "number", true]]), description: "Scrolls the feed like a person would." },
  { title: "Open the app store", parameter: null, description: "Opens the app store; no variables." },
];

const PERSONAL: readonly Omit<Template, "id" | "sort" | "updateDate" | "source" | "appIconUrls">[] = [
  {
    title: "Log in with a saved account",
    parameter: variables([
      ["username", "Username", "string", true],
      ["password", "Password", "string", true],
    ]),
    description: "Logs in to the team's app.",
  },
  { title: "Screenshot an app", parameter: variables([["packageName", "Package name", "string", true]]), description: "Opens an app and takes a screenshot." },
];

export function makeTemplates(seed: number): Template[] {
  const random = mulberry32(seed ^ 0x7e3a1e);
  const nextId = idSequence(random, 1_678_300_000_000_000n, 1_000_000);
  const build =
    (source: TemplateSource) =>
    (template: (typeof MARKET)[number], i: number): Template => {
      const id = nextId();
      return { id, ...template, appIconUrls: [`https://emulator.invalid/rpa/${id}.png`], sort: i + 1, updateDate: dateText(random), source };
    };
  return [...MARKET.map(build("MARKET")), ...PERSONAL.map(build("PERSONAL"))];
}

/** The names of the variables a template marks required. */
export function requiredVariables(template: Template): string[] {
  if (template.parameter === null) return [];
  const declared = JSON.parse(template.parameter) as Record<string, { extra?: { required?: boolean } }>;
  return Object.entries(declared)
    .filter(([, variable]) => variable.extra?.required === true)
    .map(([key]) => key);
}

/** A template as the page endpoints list it; only marketplace templates name an author. */
export function templateItem(template: Template): Record<string, unknown> {
  const { source, ...item } = template;
  return source === "MARKET" ? { ...item, author: "Emulator" } : item;
}
