import { CODES } from "./codes";
import { fail, ok, type Reply } from "./replies";
import { ParamError, readBoolean, readIdList, requireId, requireText, type Body } from "./request-fields";
import type { Route } from "./routes";
import type { EmulatorState } from "./state";
import type { Group, Tag } from "./types";

/** Creating, renaming and deleting profile groups and tags (shared spec, /envgroup/* and /envtag/*). */

const MAX_NAME = 100;
const MAX_GROUPS = 1000;

function nameOf(body: Body, field: "groupName" | "tagName"): string {
  const name = requireText(body, field).trim();
  if (name === "" || name.length > MAX_NAME) throw new ParamError(`${field} must be 1 to ${MAX_NAME} characters`);
  return name;
}

function idsOf(body: Body): string[] {
  const ids = readIdList(body, "ids") ?? [];
  if (ids.length === 0) throw new ParamError("ids is required");
  return ids;
}

/** Removes, in place, the items whose ID is in `ids`. */
function removeIn<T extends { id: string }>(list: T[], ids: ReadonlySet<string>): void {
  for (let i = list.length - 1; i >= 0; i--) if (ids.has(list[i]?.id ?? "")) list.splice(i, 1);
}

const groupTaken = (): Reply => fail(CODES.groupNameTaken, "Group name already exists");
const tagTaken = (): Reply => fail(CODES.tagNameTaken, "Tag name already exists");

function createGroup(state: EmulatorState, body: Body): Reply {
  const groupName = nameOf(body, "groupName");
  if (state.data.groups.some((group) => group.groupName === groupName)) return groupTaken();
  if (state.data.groups.length >= MAX_GROUPS) throw new ParamError(`a team has at most ${MAX_GROUPS} groups`);
  const group: Group = { id: state.ids.group(), groupName };
  state.data.groups.push(group);
  return ok({ ...group });
}

/** Profiles and phones refer to the group by ID: they show the new name at once. */
function editGroup(state: EmulatorState, body: Body): Reply {
  const id = requireId(body, "id");
  const groupName = nameOf(body, "groupName");
  const group = state.data.groups.find((g) => g.id === id);
  if (!group) throw new ParamError(`group ${id} does not exist`);
  if (group.groupName !== groupName && state.data.groups.some((g) => g.groupName === groupName)) return groupTaken();
  group.groupName = groupName;
  for (const member of [...state.data.profiles, ...state.data.cloudPhones]) if (member.groupId === id) member.groupName = groupName;
  return ok(true);
}

/**
 * Deletes the groups (unknown IDs ignored): their profiles and phones become ungrouped. With
 * `isDeleteAllEnv` their profiles go to the recycle bin, except running ones: like the real API
 * (not atomic), the groups are gone and those profiles stay, ungrouped, and the call reports it.
 */
function deleteGroups(state: EmulatorState, body: Body): Reply {
  const ids = new Set(idsOf(body));
  const deleteProfiles = readBoolean(body, "isDeleteAllEnv") === true;
  if (!state.data.groups.some((group) => ids.has(group.id))) throw new ParamError("no group with these ids exists");
  removeIn(state.data.groups, ids);
  const members = state.data.profiles.filter((profile) => ids.has(profile.groupId));
  for (const member of [...members, ...state.data.cloudPhones.filter((phone) => ids.has(phone.groupId))]) Object.assign(member, { groupId: "0", groupName: null });
  if (!deleteProfiles) return ok(true);
  const running = members.filter((profile) => state.sessions.isOpen(profile.id));
  state.removeProfiles(new Set(members.filter((profile) => !running.includes(profile)).map((profile) => profile.id)));
  return running.length === 0 ? ok(true) : fail(CODES.alreadyRunning, "Profile is running; close it first");
}

function createTag(state: EmulatorState, body: Body): Reply {
  const tagName = nameOf(body, "tagName");
  if (state.data.tags.some((tag) => tag.tagName === tagName)) return tagTaken();
  const tag: Tag = { id: state.ids.tag(), tagName };
  state.data.tags.push(tag);
  return ok({ ...tag });
}

/** Every tag a profile or phone carries with this ID shows the new name at once (the spec). */
function editTag(state: EmulatorState, body: Body): Reply {
  const id = requireId(body, "id");
  const tagName = nameOf(body, "tagName");
  const tag = state.data.tags.find((t) => t.id === id);
  if (!tag) throw new ParamError(`tag ${id} does not exist`);
  if (tag.tagName !== tagName && state.data.tags.some((t) => t.tagName === tagName)) return tagTaken();
  tag.tagName = tagName;
  for (const member of [...state.data.profiles, ...state.data.cloudPhones]) for (const carried of member.tagInfos) if (carried.id === id) carried.tagName = tagName;
  return ok(true);
}

/**
 * Unknown IDs are ignored; when none is known (a repeat call, say) the tags are reported invalid. The tag
 * disappears from every profile that carried it (the spec), cloud-phone profiles too, as edit renames it there.
 */
function deleteTags(state: EmulatorState, body: Body): Reply {
  const ids = new Set(idsOf(body));
  if (!state.data.tags.some((tag) => ids.has(tag.id))) return fail(CODES.tagsInvalid, "Tags are invalid");
  removeIn(state.data.tags, ids);
  for (const member of [...state.data.profiles, ...state.data.cloudPhones]) member.tagInfos = member.tagInfos.filter((tag) => !ids.has(tag.id));
  return ok(true);
}

/** `base` is "/api" on the Local API, "" on the Open API. */
export function groupTagRoutes(state: EmulatorState, base: string): Route[] {
  const post = (path: string, handle: (state: EmulatorState, body: Body) => Reply): Route => ({ method: "POST", path: `${base}${path}`, auth: true, handle: ({ body }) => handle(state, body) });
  return [
    post("/envgroup/create", createGroup),
    post("/envgroup/edit", editGroup),
    post("/envgroup/delete", deleteGroups),
    post("/envtag/create", createTag),
    post("/envtag/edit", editTag),
    post("/envtag/delete", deleteTags),
  ];
}
