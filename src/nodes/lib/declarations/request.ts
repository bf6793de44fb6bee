import type { NodeDeclaration } from "./declaration";
import { API_OPTIONS, TIMEOUT } from "./fields";

/** The request node: any endpoint of either API, by path. */
export const REQUEST_DECLARATIONS = {
  "morelogin-request": {
    type: "morelogin-request",
    label: "MoreLogin request",
    icon: "morelogin-request.svg",
    fields: [
      { name: "api", input: "select", icon: "fa-plug", label: "morelogin.label.api", default: "local", options: API_OPTIONS },
      { name: "method", input: "select", icon: "fa-tasks", label: "morelogin-request.label.method", default: "POST", options: [{ value: "POST" }, { value: "GET" }], narrow: true },
      {
        name: "path",
        input: "typed",
        defaultType: "str",
        required: true,
        check: "path",
        inBody: false,
        icon: "fa-road",
        label: "morelogin-request.label.path",
        placeholder: "morelogin-request.placeholder.path",
      },
      {
        name: "output",
        input: "select",
        icon: "fa-sign-out",
        label: "morelogin.label.output",
        default: "data",
        options: [
          { value: "data", text: "morelogin-request.output.data" },
          { value: "reply", text: "morelogin-request.output.reply" },
        ],
      },
      TIMEOUT,
    ],
  },
} satisfies Record<string, NodeDeclaration>;
