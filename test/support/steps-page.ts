/**
 * A page for the browser node's element actions, served over loopback HTTP on a port the OS chooses.
 * It records in the page itself what a site could measure: each keydown and mousemove with its time
 * (performance.now()), where each click landed inside its element, each wheel event, the file a file
 * input got and what a form submitted. Read it with evaluate `window.seen`.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Seen {
  keys: Array<{ key: string; t: number }>;
  moves: Array<{ x: number; y: number; t: number }>;
  /** Where each click landed: its element, its offset inside it, the element's size, and how many moves came before it. */
  clicks: Array<{ id: string; x: number; y: number; width: number; height: number; movesBefore: number }>;
  wheels: number;
  submitted: string | null;
  file: { name: string; type: string; text: string } | null;
}

export const PEOPLE = [
  { id: "1", name: "Ada", age: "36" },
  { id: "2", name: "Grace", age: "85" },
  { id: "3", name: "Linus", age: "29" },
];

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>steps</title>
<style>
  body { margin: 0; font: 16px sans-serif; }
  #corner { position: absolute; left: 10px; top: 10px; width: 40px; height: 40px; background: #ddd; }
  #go { position: absolute; left: 420px; top: 380px; width: 160px; height: 60px; }
  #menu { position: absolute; left: 700px; top: 60px; width: 120px; }
  #form { position: absolute; left: 80px; top: 120px; }
  #spacer { height: 5000px; }
</style></head>
<body>
<div id="corner"></div>
<form id="form"><input id="name" autocomplete="off">
  <select id="color"><option value="r">Red</option><option value="g">Green</option><option value="b">Blue</option></select>
  <input type="file" id="file"></form>
<button id="go">Go</button>
<div id="menu">Menu<ul id="items" hidden><li>First</li></ul></div>
<div id="spacer"></div>
<table id="people"><thead><tr><th>Name</th><th>Age</th></tr></thead><tbody>
${PEOPLE.map((person) => `<tr data-id="${person.id}"><td>${person.name}</td><td>${person.age}</td></tr>`).join("\n")}
</tbody></table>
<p id="bottom">bottom</p>
<script>
  const seen = { keys: [], moves: [], clicks: [], wheels: 0, submitted: null, file: null };
  window.seen = seen;
  addEventListener("keydown", (e) => seen.keys.push({ key: e.key, t: performance.now() }), true);
  addEventListener("mousemove", (e) => seen.moves.push({ x: e.clientX, y: e.clientY, t: performance.now() }), true);
  addEventListener("click", (e) => {
    const r = e.target.getBoundingClientRect();
    seen.clicks.push({ id: e.target.id, x: e.clientX - r.left, y: e.clientY - r.top, width: r.width, height: r.height, movesBefore: seen.moves.length });
  }, true);
  addEventListener("wheel", () => { seen.wheels++; }, { capture: true, passive: true });
  document.getElementById("menu").addEventListener("mouseenter", () => { document.getElementById("items").hidden = false; });
  document.getElementById("form").addEventListener("submit", (e) => { e.preventDefault(); seen.submitted = document.getElementById("name").value; });
  // A promise of the next file chosen, read: a step can await it instead of polling seen.file.
  let fileRead;
  window.nextFile = new Promise((resolve) => { fileRead = resolve; });
  document.getElementById("file").addEventListener("change", async (e) => {
    const f = e.target.files[0];
    seen.file = { name: f.name, type: f.type, text: await f.text() };
    fileRead(seen.file);
  });
</script>
</body></html>`;

/** Serves the page at `/` until `close`. */
export async function serveStepsPage(): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((_, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
