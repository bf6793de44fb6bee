import type { IncomingHttpHeaders } from "node:http";
import { runningPhone } from "./cloud-phone-routes";
import { storeOnPhone } from "./phone-file-routes";
import { isReply, ok, type Reply } from "./replies";
import { ParamError, requireFields, requireText, type Body } from "./request-fields";
import type { Route, RouteRequest } from "./routes";
import type { EmulatorState } from "./state";

/**
 * `/api/cloudphone/uploadFile`: a file sent as multipart/form-data (`id`, `file`, `uploadDest`) is on
 * the running phone when the answer comes, where `/download` finds it. Parsed by Node's own fetch
 * implementation, so the emulator needs no multipart library.
 */

async function formOf(headers: IncomingHttpHeaders, bytes: Buffer): Promise<FormData> {
  const contentType = headers["content-type"] ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data")) throw new ParamError("the body must be multipart/form-data");
  try {
    return await new Request("http://emulator/", { method: "POST", headers: { "content-type": contentType }, body: new Uint8Array(bytes) }).formData();
  } catch {
    throw new ParamError("the multipart body cannot be read");
  }
}

async function uploadFile(state: EmulatorState, { headers, bytes }: RouteRequest): Promise<Reply> {
  const form = await formOf(headers, bytes ?? Buffer.alloc(0));
  const file = form.get("file");
  const fields: Body = {
    id: form.get("id"),
    uploadDest: form.get("uploadDest"),
    file: file === null ? null : typeof file === "string" ? "" : file.name,
  };
  requireFields(fields, ["id", "file", "uploadDest"]);
  if (typeof file === "string" || file === null) throw new ParamError("file must be a file part");
  const uploadDest = requireText(fields, "uploadDest");
  const entry = runningPhone(state, fields);
  if (isReply(entry)) return entry;
  const name = file.name.split(/[/\\]/).pop() || "file";
  storeOnPhone(state, entry.phone.id, `${uploadDest.replace(/\/+$/, "")}/${name}`, Buffer.from(await file.arrayBuffer()));
  return ok({});
}

export function phoneMultipartRoutes(state: EmulatorState): Route[] {
  return [{ method: "POST", path: "/api/cloudphone/uploadFile", auth: true, multipart: true, handle: (request) => uploadFile(state, request) }];
}
