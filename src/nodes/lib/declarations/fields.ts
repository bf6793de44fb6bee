import type { CheckboxField, DurationField, SelectField, TypedField } from "./declaration";

/** The fields and field builders that several node families share. */
/** Every operation node's own timeout; blank = the call's default (15 s, 60 s for start and close, ...). */
export const TIMEOUT: TypedField = {
  name: "timeout",
  input: "typed",
  defaultType: "num",
  check: "seconds",
  inBody: false,
  icon: "fa-clock-o",
  label: "morelogin.label.timeout",
  placeholder: "morelogin.placeholder.timeout",
};

export const API_OPTIONS = [
  { value: "local", text: "morelogin.api.local" },
  { value: "open", text: "morelogin.api.open" },
] as const;

/** How long a started profile (a powered-on phone) may run before the config node closes it; blank = the config node's lease. */
export const LEASE: DurationField = { name: "lease", input: "duration", icon: "fa-hourglass-end", label: "morelogin.label.lease", placeholder: "morelogin.placeholder.lease" };

/** Where a profile's browser runs: in the desktop client (a flow saved without the field stays there) or in MoreLogin's cloud. */
export const WHERE: SelectField = {
  name: "where",
  input: "select",
  icon: "fa-cloud",
  label: "morelogin.label.where",
  default: "local",
  options: [
    { value: "local", text: "morelogin.where.local" },
    { value: "cloud", text: "morelogin.where.cloud" },
  ],
};

export const PROFILE: TypedField = {
  name: "envId",
  input: "typed",
  defaultType: "str",
  icon: "fa-id-card-o",
  label: "morelogin.label.envId",
  placeholder: "morelogin.placeholder.envId",
  picker: "profiles",
};

/** A select of the node's actions, labelled from its own catalog (`<type>.action.<value>`). */
export function actionSelect(type: string, actions: readonly string[], defaultAction: string): SelectField {
  return {
    name: "action",
    input: "select",
    icon: "fa-cog",
    label: "morelogin.label.action",
    default: defaultAction,
    options: actions.map((value) => ({ value, text: `${type}.action.${value}` })),
  };
}

/** A field of one node shown for some of its actions, labelled from the node's own catalog. */
export function actionField(type: string, name: string, actions: readonly string[], icon: string, extra: Partial<TypedField> = {}): TypedField {
  return { name, input: "typed", defaultType: "str", icon, label: `${type}.label.${name}`, placeholder: `${type}.placeholder.${name}`, actions, ...extra };
}

/** A select of one node shown for some of its actions: its label `<type>.label.<name>`, each option's text `<type>.<name>.<value>`. */
export function actionChoice(type: string, name: string, values: readonly string[], defaultValue: string, actions: readonly string[], icon: string): SelectField {
  return { name, input: "select", icon, label: `${type}.label.${name}`, default: defaultValue, options: values.map((value) => ({ value, text: `${type}.${name}.${value}` })), actions };
}

export function actionCheckbox(type: string, name: string, actions: readonly string[], icon = "", label = ""): CheckboxField {
  return { name, input: "checkbox", icon, label, text: `${type}.label.${name}`, actions };
}

export const API_SELECT: SelectField = { name: "api", input: "select", icon: "fa-plug", label: "morelogin.label.api", default: "local", options: API_OPTIONS };

/** The cloud phone (or phones) a node works on. */
export function phoneField(actions?: readonly string[]): TypedField {
  const field: TypedField = {
    name: "phoneId",
    input: "typed",
    defaultType: "str",
    icon: "fa-mobile",
    label: "morelogin.label.phoneId",
    placeholder: "morelogin.placeholder.phoneId",
    picker: "phones",
  };
  return actions ? { ...field, actions } : field;
}
