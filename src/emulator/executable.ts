import { accessSync, constants, statSync } from "node:fs";
import { messageOf } from "../client/errors";

/** Why `path` cannot be run as a program, or undefined when it can. */
export function notExecutable(path: string): string | undefined {
  if (path === "") return "no path given";
  try {
    if (!statSync(path).isFile()) return `${path} is not a file`;
    accessSync(path, constants.X_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return `${path} does not exist`;
    if (code === "EACCES") return `${path} is not executable`;
    return `${path} cannot be run: ${messageOf(error)}`;
  }
}
