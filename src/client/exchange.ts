import type { Dispatcher } from "undici";

/** A MoreLogin reply is JSON of a few kilobytes; anything past this is not one. */
export const MAX_REPLY_BYTES = 32 * 1024 * 1024;

export interface ExchangeReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export class ReplyTooLargeError extends Error {
  readonly code = "MORELOGIN_REPLY_TOO_LARGE";
}

const BOM = 0xfeff;

/**
 * One request and its reply, as an undici dispatch handler: collects the body into a string without
 * a stream per reply, and can be cancelled at any point, before the request has a socket or after.
 * Settles exactly once.
 */
export class Exchange implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private cancelledWith: Error | undefined;
  private settled = false;
  private status = 0;
  private headers: Record<string, string | string[] | undefined> = {};
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(
    private readonly resolve: (reply: ExchangeReply) => void,
    private readonly reject: (error: unknown) => void,
    private readonly onSettled: (exchange: Exchange) => void,
  ) {}

  /** Ends the exchange with `reason` (the caller's signal fired). */
  cancel(reason: Error): void {
    if (this.settled) return;
    if (this.controller) this.controller.abort(reason);
    else this.cancelledWith = reason;
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.cancelledWith) controller.abort(this.cancelledWith);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    this.status = statusCode;
    this.headers = headers;
    this.chunks = [];
    this.size = 0;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > MAX_REPLY_BYTES) {
      controller.abort(new ReplyTooLargeError(`the reply is larger than ${MAX_REPLY_BYTES / 1024 / 1024} MB`));
      return;
    }
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    if (this.settle()) this.resolve({ status: this.status, headers: this.headers, text: this.text() });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.settle()) this.reject(error);
  }

  private settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.onSettled(this);
    return true;
  }

  private text(): string {
    const { chunks } = this;
    const text = chunks.length === 1 ? (chunks[0] as Buffer).toString("utf8") : Buffer.concat(chunks, this.size).toString("utf8");
    this.chunks = [];
    return text.charCodeAt(0) === BOM ? text.slice(1) : text;
  }
}
