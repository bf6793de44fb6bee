import { CODES } from "./codes";
import { formatUtc } from "./dates";
import { storageOf, STORAGE_CAPACITY, splitFileName, type CloudStorage, type StoredFile } from "./cloud-storage";
import { ownBaseUrl } from "./per-emulator";
import { pageOf, readPageRequest } from "./paging";
import { fail, ok, type Reply } from "./replies";
import { containsIgnoringCase, ParamError, readId, readIdList, readInteger, readStringList, readText, requireFields, requireId, requireText, type Body } from "./request-fields";
import { PATH_ID, type Route, type RouteRequest } from "./routes";
import type { EmulatorState } from "./state";

/** `/api/cloudstorage/...`, and the upload URLs the emulator stands in for (PUT on its own port). */

export const UPLOAD_PATH = "/emulator/cloudstorage/upload";
const MAX_BASE_NAME = 60;
const MAX_PENDING = 100;
const MAX_FILE_BYTES = 2 * 1024 ** 3;

const fileNotFound = (): Reply => fail(CODES.storageFileNotFound, "Cloud storage file does not exist");

function info(state: EmulatorState): Reply {
  const storage = storageOf(state);
  return ok({
    capacity: String(STORAGE_CAPACITY),
    usedCapacity: String(storage.usedCapacity),
    expireDate: storage.expireDate,
    capacityStatus: storage.usedCapacity >= STORAGE_CAPACITY ? 1 : 0,
    isExpired: false,
  });
}

/** Confirmed files only, newest first; `fileName` partial, `tagIds` any of them. */
function filePage(state: EmulatorState, body: Body): Reply {
  const storage = storageOf(state);
  const page = readPageRequest(body, state.options.maxPageSize);
  const name = readText(body, "fileName");
  const tagIds = readIdList(body, "tagIds");
  const fileIds = readIdList(body, "fileIds");
  const fileType = readInteger(body, "fileType");
  const files = [...storage.files.values()]
    .filter((file) => file.confirmed && !file.deleted)
    .filter((file) => name === undefined || containsIgnoringCase(`${file.fileName}.${file.fileExt}`, name))
    .filter((file) => tagIds === undefined || tagIds.length === 0 || file.tagIds.some((id) => tagIds.includes(id) && storage.tagInfo(id) !== null))
    .filter((file) => fileIds === undefined || fileIds.length === 0 || fileIds.includes(file.id))
    .filter((file) => fileType === undefined || file.fileType === fileType)
    .reverse()
    .map((file) => storage.listed(file));
  return ok(pageOf(files, page));
}

function checkNames(storage: CloudStorage, names: readonly string[]): void {
  const taken = new Set([...storage.files.values()].filter((file) => !file.deleted).map((file) => file.fileName));
  for (const name of names) {
    const { fileName } = splitFileName(name);
    if (fileName === "" || fileName.length > MAX_BASE_NAME) throw new ParamError(`each file name needs 1 to ${MAX_BASE_NAME} characters before its extension`);
    if (taken.has(fileName)) throw new ParamError(`a file named ${fileName} already exists (names are compared without extension)`);
    taken.add(fileName);
  }
  if (storage.pendingCount() + names.length > MAX_PENDING) throw new ParamError(`at most ${MAX_PENDING} uploads may await confirmation`);
}

function uploadInit(state: EmulatorState, { body, headers }: RouteRequest): Reply {
  requireFields(body, ["fileNames"]);
  const names = readStringList(body, "fileNames") ?? [];
  if (names.length === 0) throw new ParamError("fileNames must hold at least one name");
  const storage = storageOf(state);
  checkNames(storage, names);
  return ok(
    names.map((name) => {
      const { id } = storage.reserve(name);
      return { id, fileName: name, presignedUrl: `${ownBaseUrl(headers.host)}${UPLOAD_PATH}/${id}` };
    }),
  );
}

/** The stand-in for the storage service: takes the bytes of a reserved, unconfirmed file. */
function uploadBytes(state: EmulatorState, pathId: string | undefined, bytes: number): Reply {
  const file = pathId === undefined ? undefined : storageOf(state).file(pathId);
  if (!file || file.confirmed) return fail(CODES.notFound, "Not found", 404);
  file.uploadedBytes = bytes;
  return ok(null);
}

/** Charges the quota and lists the file; idempotent once done. On failure the bytes are gone (the spec). */
function uploadComplete(state: EmulatorState, body: Body): Reply {
  const storage = storageOf(state);
  const file = storage.file(requireId(body, "id"));
  if (!file) return fileNotFound();
  if (file.confirmed) return ok(storage.listed(file));
  const bytes = file.uploadedBytes;
  file.uploadedBytes = undefined;
  if (bytes === undefined || bytes === 0 || bytes >= MAX_FILE_BYTES) throw new ParamError("the uploaded object is missing, empty or 2 GB or larger");
  if (storage.usedCapacity + bytes > STORAGE_CAPACITY) throw new ParamError("the cloud storage has no space left");
  storage.usedCapacity += bytes;
  file.fileSize = bytes;
  file.confirmed = true;
  file.updateDate = formatUtc(Date.now());
  return ok(storage.listed(file));
}

/** Every ID must name a file, or nothing is deleted. Tag assignments stay (the spec). */
function deleteFiles(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["ids"]);
  const storage = storageOf(state);
  const ids = readIdList(body, "ids") ?? [];
  if (ids.length === 0) throw new ParamError("ids must hold at least one ID");
  const files = ids.map((id) => storage.file(id));
  if (files.some((file) => file === undefined)) return fileNotFound();
  for (const file of files) {
    if (!file || file.deleted) continue;
    file.deleted = true;
    if (file.confirmed) storage.usedCapacity -= file.fileSize;
  }
  return ok(null);
}

function tagChange(state: EmulatorState, body: Body): { file: StoredFile; tagIds: string[] } | Reply {
  requireFields(body, ["fileId", "tagIds"]);
  const storage = storageOf(state);
  const file = storage.file(requireId(body, "fileId"));
  const tagIds = readIdList(body, "tagIds") ?? [];
  if (tagIds.length === 0) throw new ParamError("tagIds must hold at least one ID");
  if (!file) return fileNotFound();
  if (tagIds.some((id) => storage.tagInfo(id) === null)) throw new ParamError("every tag must be a cloud storage tag of the team");
  return { file, tagIds: [...new Set(tagIds)] };
}

function setTags(state: EmulatorState, body: Body, keep: boolean): Reply {
  const change = tagChange(state, body);
  if ("status" in change) return change;
  const { file, tagIds } = change;
  file.tagIds = keep ? [...new Set([...file.tagIds, ...tagIds])] : tagIds;
  return ok(null);
}

/** One unknown file fails the whole call; a deleted tag stays in `tagIds` without details (the spec). */
function queryTags(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["fileIds"]);
  const storage = storageOf(state);
  const ids = readIdList(body, "fileIds") ?? [];
  if (ids.length === 0) throw new ParamError("fileIds must hold at least one ID");
  const files = ids.map((id) => storage.file(id));
  if (files.some((file) => file === undefined)) return fileNotFound();
  return ok(files.flatMap((file) => (file ? [{ fileId: file.id, tagIds: file.tagIds, tagInfo: file.tagIds.map((id) => storage.tagInfo(id)).filter((tag) => tag !== null) }] : [])));
}

/** No duplicate check and no limit (the spec). */
function createTag(state: EmulatorState, body: Body): Reply {
  const tagName = requireText(body, "tagName").trim();
  if (tagName === "") throw new ParamError("tagName must not be blank");
  const storage = storageOf(state);
  const tag = { id: storage.nextTagId(), tagName };
  storage.tags.push(tag);
  return ok(storage.tagInfo(tag.id));
}

function editTag(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["id", "tagName"]);
  const tag = storageOf(state).tags.find((t) => t.id === readId(body, "id"));
  if (!tag) throw new ParamError("the tag is not a cloud storage tag of the team");
  tag.tagName = requireText(body, "tagName");
  return ok(true);
}

function deleteTags(state: EmulatorState, body: Body): Reply {
  requireFields(body, ["ids"]);
  const storage = storageOf(state);
  const ids = readIdList(body, "ids") ?? [];
  if (ids.length === 0) throw new ParamError("ids must hold at least one ID");
  if (ids.some((id) => storage.tagInfo(id) === null)) throw new ParamError("every ID must be a cloud storage tag of the team");
  for (const id of ids)
    storage.tags.splice(
      storage.tags.findIndex((tag) => tag.id === id),
      1,
    );
  return ok(true);
}

export function cloudStorageRoutes(state: EmulatorState): Route[] {
  const post = (path: string, handle: (body: Body) => Reply): Route => ({ method: "POST", path: `/api/cloudstorage${path}`, auth: true, handle: ({ body }) => handle(body) });
  return [
    { method: "GET", path: "/api/cloudstorage/info", auth: true, handle: () => info(state) },
    post("/file/page", (body) => filePage(state, body)),
    { method: "POST", path: "/api/cloudstorage/upload/init", auth: true, handle: (request) => uploadInit(state, request) },
    post("/upload/complete", (body) => uploadComplete(state, body)),
    post("/file/delete/batch", (body) => deleteFiles(state, body)),
    post("/file/tag/set", (body) => setTags(state, body, false)),
    post("/file/tag/add", (body) => setTags(state, body, true)),
    post("/file/tag/query", (body) => queryTags(state, body)),
    { method: "GET", path: "/api/cloudstorage/tag/all", auth: true, handle: () => ok(storageOf(state).tags.map((tag) => storageOf(state).tagInfo(tag.id))) },
    post("/tag/create", (body) => createTag(state, body)),
    post("/tag/edit", (body) => editTag(state, body)),
    post("/tag/delete/batch", (body) => deleteTags(state, body)),
    { method: "PUT", path: `${UPLOAD_PATH}/${PATH_ID}`, auth: false, handle: ({ pathId, bytes }) => uploadBytes(state, pathId, bytes?.length ?? 0) },
  ];
}
