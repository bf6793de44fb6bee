import type { EndpointName, PagedEndpointName } from "../../../client";

/** A MoreLogin list the editor suggests values from (see the `morelogin/pick/...` admin routes). */
export type Picker = "profiles" | "groups" | "phones" | "templates" | "proxies" | "tags" | "phoneBrands" | "phoneModels";

interface FieldBase {
  /** The node property, e.g. `envId`; a typed field keeps its TypedInput type in `<name>Type`. */
  name: string;
  /** Font Awesome icon of the dialog row, e.g. `fa-search`. */
  icon: string;
  /** Catalog key of the row's label. */
  label: string;
  /** Shown only while "all pages" is on (true) or off (false). */
  whenAll?: boolean;
  /** Shown and used only for these values of the node's `action` select (all actions when absent). */
  actions?: readonly string[];
  /** Shown only for this value of the node's `where` select (a profile on this machine or in MoreLogin's cloud); always when absent. */
  where?: "local" | "cloud";
}

/** A TypedInput: a fixed value, or msg, flow, global, env or JSONata. Sent in the request body unless `inBody` is false. */
export interface TypedField extends FieldBase {
  input: "typed";
  /** The type a flow saved without `<name>Type` reads the value as. */
  defaultType: "str" | "num" | "json";
  /** The TypedInput types offered, when not the usual ones for `defaultType` (e.g. JSON for parameters). */
  types?: readonly string[];
  default?: string;
  placeholder?: string;
  picker?: Picker;
  /** Other fields of the dialog whose fixed values the picker posts with the text typed (e.g. the SKU a model list is for). */
  pickerWith?: readonly string[];
  required?: boolean;
  /** How the editor checks a fixed value: a page number or size, a path relative to the API's base, or seconds. */
  check?: "page" | "path" | "seconds";
  inBody?: false;
  /** A JSON field of a profile's settings: the dialog adds a row that writes values picked from MoreLogin's catalogues into it. */
  settingsPickers?: boolean;
}

export interface CheckboxField extends FieldBase {
  input: "checkbox";
  /** Catalog key of the text beside the box. */
  text: string;
}

export interface SelectField extends FieldBase {
  input: "select";
  /** The value of a new node. */
  default: string;
  /** The value of a node saved before the field existed, when that differs from `default`. */
  savedDefault?: string;
  /** Each option's value, with the catalog key of its text (none: the value itself is shown). */
  options: ReadonlyArray<{ value: string; text?: string }>;
  narrow?: boolean;
}

/** A positive whole number typed as is (no TypedInput). */
export interface CountField extends FieldBase {
  input: "count";
  default: number;
}

/**
 * A length of time, saved in seconds; the dialog offers seconds, minutes and hours. Blank = the
 * config node's default. Not sent in the request body.
 */
export interface DurationField extends FieldBase {
  input: "duration";
  placeholder?: string;
}

export type FieldDeclaration = TypedField | CheckboxField | SelectField | CountField | DurationField;

/** A secret typed in the dialog: a Node-RED credential of the node (type password), never in flows.json. */
export interface CredentialField {
  name: string;
  icon: string;
  label: string;
  placeholder?: string;
  actions?: readonly string[];
  /** The field whose row the dialog shows this one right after (e.g. a password after its username); absent = after every field. */
  after?: string;
}

/**
 * Everything about one operation node type that its runtime, its editor dialog and its help share:
 * the build writes the dialog from it, the runtime reads its fields from it.
 */
export interface NodeDeclaration {
  type: string;
  /** Names the operation in error texts: "<label> failed: …". */
  label: string;
  /** The SVG in icons/. */
  icon: string;
  /** The paged list endpoint of a list node; list nodes get the page, all-pages and output fields. */
  list?: PagedEndpointName;
  endpoint?: EndpointName;
  /** False for a node that needs no MoreLogin config node (the browser node): no Server row. */
  config?: false;
  fields: readonly FieldDeclaration[];
  /** Secrets of the node, shown after its fields. */
  credentials?: readonly CredentialField[];
}

export type ListDeclaration = NodeDeclaration & { list: PagedEndpointName };

/** A select field's value for one node: what it saved, else what a node saved without it had. */
export function selected(def: Record<string, unknown>, field: SelectField): string {
  const value = def[field.name];
  if (typeof value === "string" && field.options.some((option) => option.value === value)) return value;
  return value === undefined ? (field.savedDefault ?? field.default) : field.default;
}

/** The node's select field of this name. */
export function selectField(declaration: NodeDeclaration, name: string): SelectField | undefined {
  return declaration.fields.find((field): field is SelectField => field.input === "select" && field.name === name);
}

export function typedFields(declaration: NodeDeclaration): TypedField[] {
  return declaration.fields.filter((field): field is TypedField => field.input === "typed");
}

/** The fields whose values go into the request body (of one action, for a node with actions). */
export function bodyFields(declaration: NodeDeclaration, action?: string): TypedField[] {
  return typedFields(declaration).filter((field) => field.inBody !== false && forAction(field, action));
}

/** True when the field belongs to this action (a field without `actions` belongs to every one). */
export function forAction(field: FieldDeclaration, action: string | undefined): boolean {
  return field.actions === undefined || action === undefined || field.actions.includes(action);
}
