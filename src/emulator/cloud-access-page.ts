/**
 * What a cloud runtime's `accessUrl` serves in the emulator: a page naming the runtime and listing the pages
 * its browser has open. MoreLogin's is a "page wrapper" to view and control the remote desktop; the
 * emulator has no desktop to show.
 */
export const ACCESS_PATH = "/browser-remote";

export interface OpenPage {
  title: string;
  url: string;
}

const escapeHtml = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function accessPage(envName: string, pages: readonly OpenPage[]): string {
  const name = escapeHtml(envName);
  const rows = pages.map((page) => `<li><strong>${escapeHtml(page.title || "(untitled)")}</strong> ${escapeHtml(page.url)}</li>`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Cloud browser ${name}</title>
</head>
<body>
<h1>Cloud browser ${name}</h1>
<p>The MoreLogin emulator's stand-in for a cloud runtime's remote desktop: the pages its browser has open.</p>
<ul id="pages">
${rows.join("\n")}
</ul>
</body>
</html>
`;
}
