import { AUTOMATION_DECLARATIONS } from "./automation";
import { PHONE_DECLARATIONS } from "./cloud-phone";
import type { NodeDeclaration } from "./declaration";
import { LIST_DECLARATIONS } from "./lists";
import { PROFILE_DECLARATIONS } from "./profiles";
import { REQUEST_DECLARATIONS } from "./request";
import { RESOURCE_DECLARATIONS } from "./resources";

/**
 * Every operation node's declaration, by node type: the runtime reads its request fields from here, the
 * build writes its dialog from here (scripts/editor-html.mjs), and the editor script makes its editor
 * definition from the same declaration. One file per node family.
 */
export const NODE_DECLARATIONS = {
  ...LIST_DECLARATIONS,
  ...PROFILE_DECLARATIONS,
  ...REQUEST_DECLARATIONS,
  ...PHONE_DECLARATIONS,
  ...RESOURCE_DECLARATIONS,
  ...AUTOMATION_DECLARATIONS,
} satisfies Record<string, NodeDeclaration>;
