import { readPositiveInt, type Body } from "./request-fields";

export interface Page<T> {
  total: string;
  current: string;
  pages: string;
  dataList: T[];
}

export interface PageRequest {
  pageNo: number;
  pageSize: number;
}

/** Reads the page number (field `pageField`, "pageNo" or "pageNum") and size, clamping the size. */
export function readPageRequest(body: Body, maxPageSize: number, pageField = "pageNo"): PageRequest {
  const pageNo = readPositiveInt(body, pageField, 1);
  const pageSize = Math.min(readPositiveInt(body, "pageSize", 10), maxPageSize);
  return { pageNo, pageSize };
}

export function pageOf<T>(items: readonly T[], { pageNo, pageSize }: PageRequest): Page<T> {
  const start = (pageNo - 1) * pageSize;
  return {
    total: String(items.length),
    current: String(pageNo),
    pages: String(Math.ceil(items.length / pageSize)),
    dataList: start < items.length ? items.slice(start, start + pageSize) : [],
  };
}
