import { isIPv6, type Socket } from "node:net";
import { ByteReader } from "./byte-reader";
import { credentialsMatch, type ProxyServing } from "./serving";
import { openUpstream, splice } from "./upstream";

/** RFC 1928 and RFC 1929 values. */
const VERSION = 5;
const NO_AUTH = 0x00;
const USERNAME_PASSWORD = 0x02;
const NO_ACCEPTABLE_METHOD = 0xff;
const AUTH_VERSION = 1;
const AUTH_OK = 0x00;
const AUTH_FAILED = 0x01;
const CONNECT = 1;
const ATYP_IPV4 = 1;
const ATYP_DOMAIN = 3;
const ATYP_IPV6 = 4;
const REPLY_OK = 0x00;
const REPLY_GENERAL_FAILURE = 0x01;
const REPLY_REFUSED = 0x05;
const REPLY_COMMAND_NOT_SUPPORTED = 0x07;
const REPLY_ADDRESS_NOT_SUPPORTED = 0x08;

function reply(code: number): Buffer {
  return Buffer.from([VERSION, code, 0, ATYP_IPV4, 0, 0, 0, 0, 0, 0]);
}

/** Method selection; with credentials only username/password is acceptable. False when the client was turned away. */
async function chooseMethod(reader: ByteReader, socket: Socket, serving: ProxyServing): Promise<boolean> {
  const [version, count] = await reader.read(2);
  if (version !== VERSION) return false;
  const methods = [...(await reader.read(count ?? 0))];
  const expected = serving.credentials();
  const method = expected === undefined && methods.includes(NO_AUTH) ? NO_AUTH : methods.includes(USERNAME_PASSWORD) ? USERNAME_PASSWORD : NO_ACCEPTABLE_METHOD;
  socket.write(Buffer.from([VERSION, method]));
  if (method !== USERNAME_PASSWORD) return method === NO_AUTH;
  const [authVersion, userLength] = await reader.read(2);
  const username = (await reader.read(userLength ?? 0)).toString("utf8");
  const password = (await reader.read(await reader.byte())).toString("utf8");
  const accepted = authVersion === AUTH_VERSION && credentialsMatch(expected, username, password);
  socket.write(Buffer.from([AUTH_VERSION, accepted ? AUTH_OK : AUTH_FAILED]));
  return accepted;
}

async function destinationHost(reader: ByteReader, type: number | undefined): Promise<string | undefined> {
  if (type === ATYP_IPV4) return [...(await reader.read(4))].join(".");
  if (type === ATYP_DOMAIN) return (await reader.read(await reader.byte())).toString("utf8");
  if (type !== ATYP_IPV6) return undefined;
  const bytes = await reader.read(16);
  const host = Array.from({ length: 8 }, (_, i) => bytes.readUInt16BE(i * 2).toString(16)).join(":");
  return isIPv6(host) ? host : undefined;
}

async function serve(socket: Socket, serving: ProxyServing): Promise<void> {
  const reader = new ByteReader(socket);
  await serving.delayAnswer(socket);
  if (socket.destroyed) return;
  if (!(await chooseMethod(reader, socket, serving))) return void socket.end();
  const [version, command, , type] = await reader.read(4);
  const host = await destinationHost(reader, type);
  const port = (await reader.read(2)).readUInt16BE(0);
  if (version !== VERSION || command !== CONNECT) return void socket.end(reply(REPLY_COMMAND_NOT_SUPPORTED));
  if (host === undefined) return void socket.end(reply(REPLY_ADDRESS_NOT_SUPPORTED));
  let upstream: Socket;
  try {
    upstream = await openUpstream(host, port, serving.exit());
  } catch (error) {
    const refused = (error as NodeJS.ErrnoException).code === "ECONNREFUSED";
    return void socket.end(reply(refused ? REPLY_REFUSED : REPLY_GENERAL_FAILURE));
  }
  if (socket.destroyed) return void upstream.destroy();
  const early = reader.release();
  socket.write(reply(REPLY_OK));
  if (early.length > 0) upstream.write(early);
  splice(socket, upstream);
  socket.resume();
}

/** A SOCKS5 proxy (RFC 1928 CONNECT, RFC 1929 username/password when its row has them) for one connection. */
export function serveSocks5(socket: Socket, serving: ProxyServing): void {
  serve(socket, serving).catch(() => socket.destroy());
}
