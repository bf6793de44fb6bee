/**
 * A writer of whole lines with a prefix ("[node-red] ..."), from chunks of a child's output that may
 * end mid-line: what is left of a line waits for its end, or for flush().
 */
export class PrefixedLines {
  private pending = "";

  constructor(
    private readonly prefix: string,
    private readonly write: (text: string) => void,
  ) {}

  push(chunk: string): void {
    const lines = (this.pending + chunk).split("\n");
    this.pending = lines.pop() ?? "";
    if (lines.length > 0) this.write(lines.map((line) => `${this.prefix}${line}\n`).join(""));
  }

  flush(): void {
    if (this.pending !== "") this.write(`${this.prefix}${this.pending}\n`);
    this.pending = "";
  }
}
