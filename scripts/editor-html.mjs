// Writes an operation node's editor HTML (registration and dialog) from its declaration in
// src/nodes/lib/declarations/; resources/morelogin-editor.js turns the declaration into the
// node's definition in the browser.

const escapeHtml = (text) => String(text).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

function label(field) {
  const icon = field.icon ? `<i class="fa ${field.icon}"></i> ` : "";
  const text = field.label ? `<span data-i18n="${escapeHtml(field.label)}"></span>` : "&nbsp;";
  return `<label for="node-input-${field.name}">${icon}${text}</label>`;
}

function control(field) {
  const id = `node-input-${field.name}`;
  switch (field.input) {
    case "typed": {
      const placeholder = field.placeholder ? ` data-i18n="[placeholder]${escapeHtml(field.placeholder)}"` : "";
      return `<input type="text" id="${id}" style="width: 70%"${placeholder}>\n        <input type="hidden" id="${id}Type">`;
    }
    case "checkbox":
      return `<label for="${id}" style="width: auto"><input type="checkbox" id="${id}" style="display: inline-block; width: auto; vertical-align: top;"> <span data-i18n="${escapeHtml(field.text)}"></span></label>`;
    case "select": {
      const options = field.options.map((option) =>
        option.text
          ? `<option value="${escapeHtml(option.value)}" data-i18n="${escapeHtml(option.text)}"></option>`
          : `<option value="${escapeHtml(option.value)}">${escapeHtml(option.value)}</option>`,
      );
      return `<select id="${id}" style="width: ${field.narrow ? "120px" : "70%"}">\n            ${options.join("\n            ")}\n        </select>`;
    }
    case "count":
      return `<input type="text" id="${id}" style="width: 120px">`;
    case "duration":
      return durationControl(id, field.placeholder);
    default:
      throw new Error(`field ${field.name}: unknown input "${field.input}"`);
  }
}

/**
 * A length of time typed as a number and a unit (seconds, minutes, hours); the property itself, in
 * seconds, is the hidden input (resources/morelogin-editor.js keeps the two in step).
 */
export function durationControl(id, placeholder) {
  const hint = placeholder ? ` data-i18n="[placeholder]${escapeHtml(placeholder)}"` : "";
  return `<input type="hidden" id="${id}">
        <input type="text" id="${id}-amount" style="width: 120px"${hint}>
        <select id="${id}-unit" style="width: 110px">
            <option value="1" data-i18n="morelogin.duration.seconds"></option>
            <option value="60" data-i18n="morelogin.duration.minutes"></option>
            <option value="3600" data-i18n="morelogin.duration.hours"></option>
        </select>`;
}

function row(field) {
  const when = field.whenAll === undefined ? "" : field.whenAll ? " morelogin-when-all" : " morelogin-when-one-page";
  const actions = field.actions ? ` data-actions="${escapeHtml(field.actions.join(" "))}"` : "";
  const where = field.where ? ` data-where="${escapeHtml(field.where)}"` : "";
  return `    <div class="form-row${when}"${actions}${where}>\n        ${label(field)}\n        ${control(field)}\n    </div>`;
}

/** What a settings picker can fill in, with the catalog key of its text. */
const SETTINGS_PICKERS = [
  ["kernels", "morelogin.settingsPicker.kernels"],
  ["timeZones", "morelogin.settingsPicker.timeZones"],
  ["languages", "morelogin.settingsPicker.languages"],
  ["resolutions", "morelogin.settingsPicker.resolutions"],
  ["sites", "morelogin.settingsPicker.sites"],
  ["mobileDevices", "morelogin.settingsPicker.mobileDevices"],
  ["groups", "morelogin.settingsPicker.groups"],
  ["tags", "morelogin.settingsPicker.tags"],
  ["proxies", "morelogin.settingsPicker.proxies"],
];

/**
 * The row under a profile's settings (JSON): what to pick and a field that suggests it from MoreLogin;
 * the choice is written into the settings (resources/morelogin-editor.js, settingsPickers).
 */
const PICK_PLACEHOLDER = "morelogin.settingsPicker.placeholder";

function settingsPickerRow(field) {
  const actions = field.actions ? ` data-actions="${escapeHtml(field.actions.join(" "))}"` : "";
  const options = SETTINGS_PICKERS.map(([value, key]) => `<option value="${value}" data-i18n="${key}"></option>`);
  const id = `node-input-${field.name}`;
  return `    <div class="form-row"${actions}>
        <label for="${id}-pick"><i class="fa fa-magic"></i> <span data-i18n="morelogin.settingsPicker.label"></span></label>
        <select id="${id}-pick-list" style="width: 30%">
            ${options.join("\n            ")}
        </select>
        <input type="text" id="${id}-pick" style="width: 39%" data-i18n="[placeholder]${PICK_PLACEHOLDER}">
    </div>`;
}

/** A credential row: a password input Node-RED keeps in its credentials file, not in flows.json. */
function credentialRow(field) {
  const actions = field.actions ? ` data-actions="${escapeHtml(field.actions.join(" "))}"` : "";
  const placeholder = field.placeholder ? ` data-i18n="[placeholder]${escapeHtml(field.placeholder)}"` : "";
  return `    <div class="form-row"${actions}>\n        ${label(field)}\n        <input type="password" id="node-input-${field.name}" style="width: 70%" autocomplete="off"${placeholder}>\n    </div>`;
}

const SERVER_ROW = `    <div class="form-row">
        <label for="node-input-server"><i class="fa fa-globe"></i> <span data-i18n="morelogin.label.server"></span></label>
        <input type="text" id="node-input-server">
    </div>`;
const NAME_ROW = `    <div class="form-row">
        <label for="node-input-name"><i class="fa fa-tag"></i> <span data-i18n="node-red:common.label.name"></span></label>
        <input type="text" id="node-input-name" data-i18n="[placeholder]node-red:common.label.name">
    </div>`;

/** The field rows, each credential row right after the field it names in `after`, the others after every field. */
function fieldRows(declaration) {
  const credentials = declaration.credentials ?? [];
  const placed = (field) => credentials.filter((credential) => credential.after === field.name).map(credentialRow);
  const rest = credentials.filter((credential) => !declaration.fields.some((field) => field.name === credential.after)).map(credentialRow);
  return [...declaration.fields.flatMap((field) => [row(field), ...(field.settingsPickers ? [settingsPickerRow(field)] : []), ...placed(field)]), ...rest];
}

export function editorHtml(declaration) {
  const json = JSON.stringify(declaration).replace(/</g, "\\u003c");
  const pickers = declaration.fields.some((field) => field.settingsPickers)
    ? `\n<script type="text/javascript" src="resources/node-red-contrib-morelogin/morelogin-settings-pickers.js"></script>`
    : "";
  return `<script type="text/javascript" src="resources/node-red-contrib-morelogin/morelogin-editor.js"></script>${pickers}
<script type="text/javascript">
    MoreLoginEditor.registerNode(${json});
</script>

<script type="text/html" data-template-name="${escapeHtml(declaration.type)}">
${[...(declaration.config === false ? [] : [SERVER_ROW]), ...fieldRows(declaration), NAME_ROW].join("\n")}
</script>
`;
}
