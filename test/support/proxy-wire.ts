/** Raw bytes to and from an emulated proxy: its protocols as a client speaks them, without a client library. */
import { connect, type Socket } from "node:net";

/** Connects to 127.0.0.1:`port`; rejects with the connection's error (ECONNREFUSED for a dead proxy). */
export function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("error", reject);
    socket.once("connect", () => {
      socket.off("error", reject);
      resolve(socket);
    });
  });
}

/** Reads until `done` holds for what arrived, or the socket closes; resolves with every byte read. */
export function readUntil(socket: Socket, done: (bytes: Buffer) => boolean): Promise<Buffer> {
  return new Promise((resolve) => {
    let bytes = Buffer.alloc(0);
    const finish = (): void => {
      socket.off("data", onData);
      socket.off("close", finish);
      resolve(bytes);
    };
    const onData = (chunk: Buffer): void => {
      bytes = Buffer.concat([bytes, chunk]);
      if (done(bytes)) finish();
    };
    socket.on("data", onData);
    socket.once("close", finish);
  });
}

/** Writes `bytes` and reads `length` bytes of answer (fewer when the proxy closes first). */
export async function exchange(socket: Socket, bytes: Buffer, length: number): Promise<Buffer> {
  const answer = readUntil(socket, (read) => read.length >= length);
  socket.write(bytes);
  return answer;
}

/** An HTTP/1.1 request's head and, when it has one, its body: read until the headers end and Content-Length is met. */
export function httpAnswer(socket: Socket): Promise<string> {
  return readUntil(socket, (bytes) => {
    const text = bytes.toString("latin1");
    const end = text.indexOf("\r\n\r\n");
    if (end === -1) return false;
    const length = Number(/content-length:\s*(\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
    return bytes.length >= end + 4 + length;
  }).then((bytes) => bytes.toString("utf8"));
}

/** RFC 1929's sub-negotiation: version 1, then the username and password with their lengths. */
export function socksCredentials(username: string, password: string): Buffer {
  return Buffer.concat([Buffer.from([1, username.length]), Buffer.from(username), Buffer.from([password.length]), Buffer.from(password)]);
}

/** RFC 1928 CONNECT to an IPv4 address. */
export function socksConnect(host: string, port: number): Buffer {
  const address = host.split(".").map(Number);
  return Buffer.from([5, 1, 0, 1, ...address, port >> 8, port & 0xff]);
}
