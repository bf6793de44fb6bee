import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";

export interface EmulatorProcess {
  localUrl: string;
  openUrl: string;
  apiId: string;
  apiKey: string;
  stop(): Promise<void>;
}

/** The emulator in a process of its own, so its CPU is not charged to what is measured. */
export function startEmulatorProcess(profiles: number): Promise<EmulatorProcess> {
  const child: ChildProcess = spawn(process.execPath, [join(__dirname, "..", "dist", "emulator", "cli.js"), "--local-port", "0", "--open-port", "0", "--profiles", String(profiles)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`the emulator did not start:\n${output}`)), 30_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const local = /Local API:\s+(\S+)/.exec(output)?.[1];
      const open = /Open API:\s+(\S+)/.exec(output)?.[1];
      const apiId = /API ID:\s+(\S+)/.exec(output)?.[1];
      const apiKey = /API key:\s+(\S+)/.exec(output)?.[1];
      if (local && open && apiId && apiKey && /Ctrl\+C/.test(output)) {
        clearTimeout(timer);
        resolve({
          localUrl: local,
          openUrl: open,
          apiId,
          apiKey,
          stop: () =>
            new Promise((done) => {
              child.once("exit", () => done());
              child.kill("SIGINT");
            }),
        });
      }
    });
    child.once("exit", (code) => reject(new Error(`the emulator exited with ${String(code)}:\n${output}`)));
  });
}
