import type { PhoneEntry } from "./phone-state";

/**
 * A stand-in for `adb shell` on a cloud phone: a few commands answer from the phone's state, the rest
 * as Android's shell answers a command it does not have. Output has no trailing newline. Commands
 * joined by `;`, `&&` or newlines run in turn and their outputs are joined by newlines.
 */

const SYSTEM_PACKAGES = ["android", "com.android.settings", "com.android.systemui", "com.android.shell"];

function getprop(entry: PhoneEntry, name: string | undefined): string {
  const props: Record<string, string> = {
    "ro.product.model": entry.model,
    "ro.product.brand": entry.brand,
    "ro.product.manufacturer": entry.brand,
    "ro.build.version.release": entry.android,
    "ro.serialno": entry.phone.androidId,
  };
  if (name === undefined)
    return Object.entries(props)
      .map(([key, value]) => `[${key}]: [${value}]`)
      .join("\n");
  return props[name] ?? "";
}

/** A stable pid per package, so a started app keeps its pid until it stops. */
function pidOf(packageName: string): number {
  let hash = 0;
  for (const char of packageName) hash = (hash * 31 + char.charCodeAt(0)) % 20_000;
  return 2_000 + hash;
}

function runOne(entry: PhoneEntry, command: string): string {
  const words = command.split(/\s+/).filter((word) => word !== "");
  const [name = "", ...args] = words;
  switch (name) {
    case "echo":
      return args.join(" ").replace(/^(["'])(.*)\1$/, "$2");
    case "getprop":
      return getprop(entry, args[0]);
    case "whoami":
      return "shell";
    case "id":
      return "uid=2000(shell) gid=2000(shell) groups=2000(shell)";
    case "pwd":
      return "/";
    case "settings":
      return args.join(" ") === "get secure android_id" ? entry.phone.androidId : "null";
    case "pm":
      if (args[0] === "list" && args[1] === "packages") return [...SYSTEM_PACKAGES, ...entry.installed.keys()].map((pkg) => `package:${pkg}`).join("\n");
      return "";
    case "pidof": {
      const running = args.filter((pkg) => entry.runningApps.has(pkg));
      return running.map(pidOf).join(" ");
    }
    case "true":
    case "":
      return "";
    default:
      return `/system/bin/sh: ${name}: inaccessible or not found`;
  }
}

export function runShell(entry: PhoneEntry, command: string): string {
  return command
    .split(/\s*(?:;|&&|\n)\s*/)
    .filter((part) => part.trim() !== "")
    .map((part) => runOne(entry, part.trim()))
    .join("\n");
}
