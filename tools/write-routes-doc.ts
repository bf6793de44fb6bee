/** `npm run docs:routes`: writes docs/NODES.md's route section (tools/routes-doc.ts). */
import { readFileSync, writeFileSync } from "node:fs";
import { NODES_PAGE, routesSection, withSection } from "./routes-doc";

const page = readFileSync(NODES_PAGE, "utf8");
const section = routesSection();
writeFileSync(NODES_PAGE, withSection(page, section));
console.log(section.split("\n")[2]);
