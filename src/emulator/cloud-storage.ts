import { formatUtc } from "./dates";
import { perEmulator } from "./per-emulator";
import { idSequence, mulberry32 } from "./prng";

/** The team's cloud storage: files, their tags and the quota (the cloud-storage spec). */

export interface StoredFile {
  readonly id: string;
  /** The name without its extension, as the spec lists it. */
  readonly fileName: string;
  readonly fileExt: string;
  readonly fileType: number;
  /** Bytes PUT to the upload URL; undefined until then. */
  uploadedBytes?: number;
  /** Only confirmed uploads are listed and count toward the quota. */
  confirmed: boolean;
  deleted: boolean;
  fileSize: number;
  tagIds: string[];
  readonly createDate: string;
  updateDate: string;
}

export interface StorageTag {
  readonly id: string;
  tagName: string;
}

/** 10 GiB, the spec's example capacity. */
export const STORAGE_CAPACITY = 10_737_418_240;
const YEAR_MS = 365 * 86_400_000;

/** File types by extension: 0 image, 1 video, 2 application, 3 audio, 4 document, else 5 other (the spec's values). */
const TYPE_OF_EXTENSION: Readonly<Record<string, number>> = Object.fromEntries(
  [
    ["jpg jpeg png gif webp bmp", 0],
    ["mp4 mov avi mkv webm", 1],
    ["apk xapk", 2],
    ["mp3 wav aac flac ogg m4a", 3],
    ["pdf doc docx xls xlsx ppt pptx txt csv", 4],
  ].flatMap(([extensions, type]) =>
    String(extensions)
      .split(" ")
      .map((ext) => [ext, Number(type)]),
  ),
);

export function splitFileName(name: string): { fileName: string; fileExt: string } {
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? { fileName: name, fileExt: "" } : { fileName: name.slice(0, dot), fileExt: name.slice(dot + 1) };
}

export class CloudStorage {
  readonly files = new Map<string, StoredFile>();
  readonly tags: StorageTag[] = [];
  usedCapacity = 0;
  readonly expireDate = formatUtc(Date.now() + YEAR_MS);
  private readonly nextFileId: () => string;
  readonly nextTagId: () => string;

  constructor(seed: number) {
    const random = mulberry32(seed ^ 0x5707);
    this.nextFileId = idSequence(random, 1_800_000_000_001_000n, 1_000);
    this.nextTagId = idSequence(random, 1_800_000_000_000_100n, 10);
  }

  /** A file record awaiting its upload (the spec: uploading, size 0). */
  reserve(name: string): StoredFile {
    const { fileName, fileExt } = splitFileName(name);
    const now = formatUtc(Date.now());
    const file: StoredFile = {
      id: this.nextFileId(),
      fileName,
      fileExt,
      fileType: TYPE_OF_EXTENSION[fileExt.toLowerCase()] ?? 5,
      confirmed: false,
      deleted: false,
      fileSize: 0,
      tagIds: [],
      createDate: now,
      updateDate: now,
    };
    this.files.set(file.id, file);
    return file;
  }

  /** A file that exists (reserved or confirmed, not deleted). */
  file(id: string): StoredFile | undefined {
    const file = this.files.get(id);
    return file && !file.deleted ? file : undefined;
  }

  pendingCount(): number {
    return [...this.files.values()].filter((file) => !file.deleted && !file.confirmed).length;
  }

  /** A tag as the spec's TagInfo; null for one deleted while still attached. */
  tagInfo(id: string): Record<string, string> | null {
    const tag = this.tags.find((t) => t.id === id);
    return tag ? { id: tag.id, tagSource: "CLOUD_STORAGE", tagName: tag.tagName, tagType: "TAG", tagIcon: "" } : null;
  }

  listed(file: StoredFile): Record<string, unknown> {
    const { id, fileName, fileExt, fileType, createDate, updateDate } = file;
    return { id, fileName, fileExt, fileSize: String(file.fileSize), fileType, tagInfo: file.tagIds.map((tagId) => this.tagInfo(tagId)), createDate, updateDate };
  }
}

export const storageOf = perEmulator((state) => new CloudStorage(state.options.seed));
