/**
 * The repository's files as a fresh clone or an unpacked source archive has them: every file under the
 * root except `.git` and what the root `.gitignore` leaves out. Read from the file system, so it gives
 * the same answer in a git checkout and in a copy that is not one.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Whether a path (relative, `/`-separated) is ignored; `directory` says whether it names a folder. */
type IgnoreRule = (path: string, directory: boolean) => boolean;

/** A glob of one path segment or more as a RegExp: `*` and `?` never cross a `/`. */
function globToRegExp(glob: string): RegExp {
  const source = [...glob].map((char) => (char === "*" ? "[^/]*" : char === "?" ? "[^/]" : char.replace(/[.+^${}()|\\]/g, "\\$&"))).join("");
  return new RegExp(`^${source}$`);
}

/**
 * One `.gitignore` line as a rule, for the forms git documents that need no more than `*` and `?`:
 * `name` (at any depth), `name/` (folders only), `dir/name` or `/name` (from the root). Negation, `**`,
 * character classes and escapes are refused, so a pattern this reader does not understand fails the
 * listing loudly instead of shipping or dropping files silently.
 */
export function ignoreRule(line: string): IgnoreRule {
  if (/^!|\*\*|[[\]\\]/.test(line)) throw new Error(`.gitignore pattern "${line}" is not one this reader supports (negation, **, [ ] or \\)`);
  const directoryOnly = line.endsWith("/");
  const pattern = directoryOnly ? line.slice(0, -1) : line;
  const anchored = pattern.includes("/");
  const matcher = globToRegExp(pattern.replace(/^\//, ""));
  return (path, directory) => {
    if (directoryOnly && !directory) return false;
    return matcher.test(anchored ? path : path.slice(path.lastIndexOf("/") + 1));
  };
}

function ignoreRules(root: string): IgnoreRule[] {
  let text: string;
  try {
    text = readFileSync(join(root, ".gitignore"), "utf8");
  } catch {
    return [];
  }
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map(ignoreRule);
}

/**
 * Every file to ship from `root`, relative and `/`-separated, sorted. A symbolic link counts as what it
 * points to when deciding whether it is ignored (a `node_modules` link is a folder); linked folders that
 * are not ignored are not entered, so a link cannot loop.
 */
export function sourceFiles(root: string): string[] {
  const rules = ignoreRules(root);
  const ignored = (path: string, directory: boolean): boolean => rules.some((rule) => rule(path, directory));
  const files: string[] = [];
  const visit = (folder: string): void => {
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
      const path = folder === "" ? entry.name : `${folder}/${entry.name}`;
      if (path === ".git") continue;
      const stats = statSync(join(root, path), { throwIfNoEntry: false });
      if (!stats) continue; // a dangling link
      if (ignored(path, stats.isDirectory())) continue;
      if (entry.isDirectory()) visit(path);
      else if (stats.isFile()) files.push(path);
    }
  };
  visit("");
  return files.sort();
}
