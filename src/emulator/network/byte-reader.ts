import type { Socket } from "node:net";

/** Reads a socket's bytes in the sizes a binary handshake asks for; rejects when the socket ends first. */
export class ByteReader {
  private buffered = Buffer.alloc(0);
  private waiting: { size: number; resolve: (bytes: Buffer) => void; reject: (error: Error) => void } | undefined;
  private ended = false;
  private readonly onData = (chunk: Buffer): void => {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    this.serve();
  };
  private readonly onEnd = (): void => {
    this.ended = true;
    this.waiting?.reject(new Error("the client closed the connection"));
    this.waiting = undefined;
  };

  constructor(private readonly socket: Socket) {
    socket.on("data", this.onData);
    socket.once("close", this.onEnd);
  }

  read(size: number): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      if (this.ended) return reject(new Error("the client closed the connection"));
      this.waiting = { size, resolve, reject };
      this.serve();
    });
  }

  async byte(): Promise<number> {
    return (await this.read(1))[0] ?? 0;
  }

  /** Stops reading; returns what was received past the handshake (to pass on upstream). */
  release(): Buffer {
    this.socket.off("data", this.onData);
    this.socket.off("close", this.onEnd);
    this.socket.pause();
    return this.buffered;
  }

  private serve(): void {
    const waiting = this.waiting;
    if (waiting === undefined || this.buffered.length < waiting.size) return;
    this.waiting = undefined;
    const bytes = this.buffered.subarray(0, waiting.size);
    this.buffered = this.buffered.subarray(waiting.size);
    waiting.resolve(bytes);
  }
}
