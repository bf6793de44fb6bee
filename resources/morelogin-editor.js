/* Editor helpers shared by every MoreLogin node: live pickers and the connection test.
 * Loaded by each node's HTML from resources/node-red-contrib-morelogin/ (a relative URL, so
 * httpAdminRoot and admin authentication keep working). */
(function () {
  "use strict";
  if (window.MoreLoginEditor) return;

  /** Constants and checks shared with the runtime (src/nodes/lib/declarations/config.ts), exported by the config node. */
  var SHARED = RED.settings.moreloginConfigEditor;
  var RULES = {};
  Object.keys(SHARED.rules).forEach(function (name) {
    RULES[name] = new RegExp(SHARED.rules[name]);
  });
  var STYLE =
    ".morelogin-picker-option{display:flex;flex-direction:column;line-height:1.3;padding:2px 0}" +
    ".morelogin-picker-id{font-size:0.85em;color:var(--red-ui-secondary-text-color)}" +
    ".morelogin-picker-message{color:var(--red-ui-secondary-text-color);font-style:italic}" +
    ".morelogin-test-result{margin-top:6px}" +
    ".morelogin-test-line{padding:2px 0}" +
    ".morelogin-test-ok i{color:var(--red-ui-text-color-success)}" +
    ".morelogin-test-failed i,.morelogin-test-failed{color:var(--red-ui-text-color-error)}" +
    ".morelogin-test-skipped{color:var(--red-ui-secondary-text-color)}";
  $("<style>", { id: "morelogin-editor-style" }).text(STYLE).appendTo("head");
  var CREDENTIALS = Object.keys(SHARED.credentials);
  var CATALOG = "node-red-contrib-morelogin/morelogin-config:";

  function t(key) {
    return RED._(CATALOG + key);
  }

  /** What the admin endpoints need to reach MoreLogin for a config node: its id, URLs and credentials. */
  function settingsForConfig(configId) {
    var config = configId && RED.nodes.node(configId);
    if (!config) return null;
    var settings = { id: config.id, localUrl: config.localUrl, openUrl: config.openUrl, credentials: {} };
    var credentials = config.credentials || {};
    CREDENTIALS.forEach(function (name) {
      if (typeof credentials[name] === "string" && credentials[name] !== "") settings.credentials[name] = credentials[name];
      else if (credentials["has_" + name]) settings.credentials[name] = SHARED.stored;
    });
    return settings;
  }

  /** The settings typed into an open config dialog (unsaved), for "Test connection". */
  function settingsFromConfigDialog(configId) {
    var settings = {
      id: configId,
      localUrl: $("#node-config-input-localUrl").val(),
      openUrl: $("#node-config-input-openUrl").val(),
      credentials: {},
    };
    var login = $("#node-config-input-localLogin");
    if (login.length) settings.localLogin = login.is(":checked");
    CREDENTIALS.forEach(function (name) {
      var value = $("#node-config-input-" + name).val();
      if (value) settings.credentials[name] = value;
    });
    return settings;
  }

  function post(path, body) {
    return $.ajax({ url: "morelogin/" + path, method: "POST", contentType: "application/json", data: JSON.stringify(body), dataType: "json" });
  }

  function failureText(xhr) {
    if (xhr && xhr.status === 403) return t("morelogin.picker.forbidden");
    if (xhr && xhr.responseJSON && xhr.responseJSON.error) return xhr.responseJSON.error;
    if (xhr && xhr.status === 401) return t("morelogin.picker.unauthorized");
    return t("morelogin.picker.failed");
  }

  function option(item) {
    var label = $("<div>", { class: "morelogin-picker-option" });
    $("<span>", { class: "morelogin-picker-name" })
      .text(item.name || item.id)
      .appendTo(label);
    $("<span>", { class: "morelogin-picker-id" })
      .text(item.name === item.id ? item.detail || "" : item.id + (item.detail ? " · " + item.detail : ""))
      .appendTo(label);
    return { value: item.id, label: label };
  }

  function message(text) {
    return [{ value: "", label: $("<div>", { class: "morelogin-picker-message" }).text(text) }];
  }

  /** The fixed values of the dialog fields a picker posts along (`pickerWith`): a select's value, a typed field's when it is a string or number. */
  function pickerContext(field) {
    var context = {};
    (field.pickerWith || []).forEach(function (name) {
      var input = $("#node-input-" + name);
      var type = $("#node-input-" + name + "Type").val();
      if (input.is("select") || type === "str" || type === "num") context[name] = input.val();
    });
    return context;
  }

  /** What a picker shows when its answer holds no suggestion: why, when the answer says. */
  function emptyPickerText(reply) {
    if (reply.need === "sku") return t("morelogin.picker.needSku");
    if (reply.withoutId && reply.withoutId.length) return t("morelogin.picker.withoutId").replace("__models__", reply.withoutId.join(", "));
    return t("morelogin.picker.none");
  }

  /**
   * A TypedInput "string" (or, for a number field, "number") type whose suggestions come from MoreLogin:
   * names shown, the ID stored. `field.picker` names the list (see the `morelogin/pick/` admin route);
   * `serverField` is the config select.
   */
  function pickerType(field, serverField) {
    var numeric = field.defaultType === "num";
    return {
      value: numeric ? "num" : "str",
      label: numeric ? "number" : "string",
      icon: numeric ? "red/images/typedInput/09.svg" : "red/images/typedInput/az.svg",
      validate: numeric
        ? function (value, options) {
            return RED.utils.validateTypedProperty(value, "num", options);
          }
        : undefined,
      autoComplete: function (value, done) {
        var settings = settingsForConfig($(serverField).val());
        if (!settings) return done(message(t("morelogin.picker.chooseConfig")));
        post("pick/" + field.picker, $.extend({ q: /^\d+$/.test(value) ? "" : value }, pickerContext(field), settings))
          .done(function (reply) {
            var items = reply.items || [];
            if (/^\d+$/.test(value))
              items = items.filter(function (item) {
                return item.id.indexOf(value) === 0;
              });
            done(items.length ? items.map(option) : message(emptyPickerText(reply)));
          })
          .fail(function (xhr) {
            done(message(failureText(xhr)));
          });
      },
    };
  }

  /** The types a picker field offers: MoreLogin suggestions first, then msg/flow/global/env/JSONata. */
  function pickerTypes(field, serverField) {
    return [pickerType(field, serverField), "msg", "flow", "global", "env", "jsonata"];
  }

  /** Runs the connection test and shows each API's result in words inside `target`. */
  function testConnection(configId, target) {
    var box = $(target).empty().removeClass("morelogin-test-ok morelogin-test-failed");
    $("<div>").text(t("morelogin.test.running")).appendTo(box);
    post("test", settingsFromConfigDialog(configId))
      .done(function (reply) {
        box.empty();
        [reply.login, reply.local, reply.balance, reply.open].filter(Boolean).forEach(function (result) {
          var icon = result.ok === true ? "fa-check" : result.ok === false ? "fa-times" : "fa-minus";
          var line = $("<div>", { class: "morelogin-test-line morelogin-test-" + (result.ok === true ? "ok" : result.ok === false ? "failed" : "skipped") });
          $("<i>", { class: "fa " + icon }).appendTo(line);
          $("<span>")
            .text(" " + result.message)
            .appendTo(line);
          line.appendTo(box);
        });
      })
      .fail(function (xhr) {
        box.empty();
        var line = $("<div>", { class: "morelogin-test-line morelogin-test-failed" });
        $("<i>", { class: "fa fa-times" }).appendTo(line);
        $("<span>")
          .text(" " + failureText(xhr))
          .appendTo(line);
        line.appendTo(box);
      });
  }

  var STRING_TYPES = ["str", "msg", "flow", "global", "env", "jsonata"];
  var NUMBER_TYPES = ["num", "msg", "flow", "global", "env", "jsonata"];

  /** Turns `#node-input-<name>` into a TypedInput whose type is kept in `#node-input-<name>Type`. */
  function typedField(field) {
    var typeField = $("#node-input-" + field.name + "Type");
    if (!typeField.val()) typeField.val(field.defaultType);
    var types = field.picker ? pickerTypes(field, "#node-input-server") : field.types ? field.types.slice() : field.defaultType === "num" ? NUMBER_TYPES : STRING_TYPES;
    $("#node-input-" + field.name).typedInput({ default: field.defaultType, types: types, typeField: typeField });
  }

  /** Only a fixed value is checked; one taken from msg, context, env or JSONata is checked when the message comes. */
  function fixedValueCheck(name, test) {
    return function (value) {
      var type = $("#node-input-" + name + "Type").val() || this[name + "Type"] || "str";
      return type !== "str" && type !== "num" ? true : test(String(value === undefined ? "" : value));
    };
  }

  var CHECKS = {
    /** A page number or size, as the runtime reads a number setting: blank, ${ENV_VAR}, or a number that is a positive whole number. */
    page: function (value) {
      var number = Number(value);
      return value.trim() === "" || RULES.envReference.test(value) || (Number.isSafeInteger(number) && number >= 1);
    },
    /** Seconds: blank (the call's own default), ${ENV_VAR}, or a number above 0 and at most a day. */
    seconds: function (value) {
      var number = Number(value);
      return value.trim() === "" || RULES.envReference.test(value) || (Number.isFinite(number) && number > 0 && number <= 86400);
    },
    /** A path below the API's base: no other host, no dot segments (the runtime also checks what it decodes to). */
    path: function (value) {
      return RULES.relativePath.test(value) && value.indexOf("//") !== 0 && !RULES.dotSegment.test(value.split("?")[0]);
    },
  };

  function isCount(value) {
    return RULES.positiveInteger.test(String(value));
  }

  /** A config node's pacing setting: blank (the default), ${ENV_VAR}, or a whole number (0 = no limit). */
  function isPacing(value) {
    var text = String(value === undefined ? "" : value).trim();
    return text === "" || RULES.envReference.test(text) || RULES.wholeNumber.test(text);
  }

  var DURATION_UNITS = [3600, 60, 1];

  /** A duration in seconds: blank (the default), or a whole number, 0 or more (0 = none). */
  /** A lease in whole seconds, blank or 0 to a year (the runtime's MAX_LEASE_SECONDS). */
  function isDuration(value) {
    var text = String(value === undefined ? "" : value).trim();
    return text === "" || (RULES.wholeNumber.test(text) && Number(text) <= 31536000);
  }

  /**
   * Keeps `#<id>` (seconds, the saved property) in step with `#<id>-amount` and `#<id>-unit`: a saved
   * value shows in the largest unit it is a whole number of (1800 s as 30 minutes).
   */
  function durationField(id) {
    var hidden = $("#" + id);
    var amount = $("#" + id + "-amount");
    var unit = $("#" + id + "-unit");
    var seconds = String(hidden.val() || "").trim();
    var shown = 1;
    if (RULES.wholeNumber.test(seconds) && Number(seconds) > 0) {
      shown = DURATION_UNITS.filter(function (size) {
        return Number(seconds) % size === 0;
      })[0];
    }
    unit.val(String(shown));
    amount.val(seconds === "" ? "" : RULES.wholeNumber.test(seconds) ? String(Number(seconds) / shown) : seconds);
    function sync() {
      var text = String(amount.val() || "").trim();
      var number = Number(text);
      var value = text === "" ? "" : Number.isFinite(number) && number >= 0 ? String(Math.round(number * Number(unit.val()))) : text;
      hidden.val(value).trigger("change");
      amount.toggleClass("input-error", !isDuration(value));
    }
    amount.on("change keyup", sync);
    unit.on("change", sync);
  }

  /** "All pages" shows the item limit and hides the page number. */
  function syncAllPages() {
    var all = $("#node-input-all").is(":checked");
    $(".morelogin-when-one-page").toggle(!all);
    $(".morelogin-when-all").toggle(all);
  }

  /** Shows the rows of the chosen action only (rows without `data-actions` belong to every action). */
  function syncAction() {
    var action = $("#node-input-action").val();
    $(".form-row[data-actions]").each(function () {
      $(this).toggle(String($(this).attr("data-actions")).split(" ").indexOf(action) !== -1);
    });
    closeSuggestions($("#node-input-action").closest("form"));
  }

  /** Shows the rows of the chosen place only: a profile on this machine or in MoreLogin's cloud (rows without `data-where` belong to both). */
  function syncWhere() {
    var where = $("#node-input-where").val();
    $(".form-row[data-where]").each(function () {
      $(this).toggle($(this).attr("data-where") === where);
    });
  }

  /**
   * Closes the suggestion list a picker field of `form` has open (Node-RED's autoComplete widget), and
   * drops the answer it still waits for: left open, it would cover the rows the new action shows.
   * Closing it puts the focus back on its field; the focus stays where it was.
   */
  function closeSuggestions(form) {
    var focused = document.activeElement;
    form.find(".red-ui-autoComplete").each(function () {
      var widget = $(this).autoComplete("instance");
      if (!widget) return;
      widget.pendingRequest = undefined;
      if (widget.completionMenuShown && widget.menu) widget.menu.hide();
    });
    if (focused && focused !== document.activeElement) focused.focus();
  }

  /**
   * Registers an operation node type from its declaration (src/nodes/lib/declarations/), the
   * same one its runtime and its dialog (written by the build) come from.
   */
  function registerNode(declaration) {
    var type = declaration.type;
    var defaults = { name: { value: "" } };
    if (declaration.config !== false) defaults.server = { value: "", type: "morelogin-config", required: true };
    declaration.fields.forEach(function (field) {
      if (field.input === "typed") {
        defaults[field.name] = { value: field.default || "", required: Boolean(field.required) };
        if (field.check) defaults[field.name].validate = fixedValueCheck(field.name, CHECKS[field.check]);
        if (field.settingsPickers && window.MoreLoginEditor.settingsValid) defaults[field.name].validate = window.MoreLoginEditor.settingsValid(field.name);
        defaults[field.name + "Type"] = { value: field.defaultType };
      } else if (field.input === "checkbox") {
        defaults[field.name] = { value: false };
      } else if (field.input === "count") {
        defaults[field.name] = { value: field.default, validate: isCount };
      } else if (field.input === "duration") {
        defaults[field.name] = { value: "", validate: isDuration };
      } else {
        defaults[field.name] = { value: field.default };
      }
    });
    var credentials = {};
    (declaration.credentials || []).forEach(function (field) {
      credentials[field.name] = { type: "password" };
    });
    RED.nodes.registerType(type, {
      category: "MoreLogin",
      color: "#A6BBCF",
      defaults: defaults,
      credentials: credentials,
      inputs: 1,
      outputs: 1,
      icon: declaration.icon,
      paletteLabel: function () {
        return this._(type + ".paletteLabel");
      },
      label: function () {
        return this.name || this._(type + ".paletteLabel");
      },
      labelStyle: function () {
        return this.name ? "node_label_italic" : "";
      },
      inputLabels: function () {
        return this._(type + ".inputLabel");
      },
      outputLabels: function () {
        return this._(type + ".outputLabel");
      },
      oneditprepare: function () {
        var node = this;
        declaration.fields.forEach(function (field) {
          if (field.input === "typed") typedField(field);
          if (field.settingsPickers && window.MoreLoginEditor.settingsPickers) window.MoreLoginEditor.settingsPickers(field);
          if (field.input === "duration") durationField("node-input-" + field.name);
          // A node saved before the field existed shows (and keeps) the value it has always had.
          if (field.input === "select" && field.savedDefault !== undefined && node[field.name] === undefined) {
            $("#node-input-" + field.name).val(field.savedDefault);
          }
        });
        if (declaration.list) {
          $("#node-input-all").on("change", syncAllPages);
          syncAllPages();
        }
        if ($("#node-input-action").length) {
          $("#node-input-action").on("change", syncAction);
          syncAction();
        }
        if ($("#node-input-where").length) {
          $("#node-input-where").on("change", syncWhere);
          syncWhere();
        }
      },
    });
  }

  /** A base URL the client accepts: http(s), no user, query or fragment; `httpsOnly` allows plain http only to this machine. */
  function isUrl(value, httpsOnly) {
    if (RULES.envReference.test(value)) return true;
    var url;
    try {
      url = new URL(String(value || "").trim());
    } catch (_error) {
      return false;
    }
    if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password || url.search || url.hash) return false;
    if (!httpsOnly || url.protocol === "https:") return true;
    return RULES.loopbackHost.test(url.hostname.replace(/^\[|\]$/g, "").toLowerCase());
  }

  window.MoreLoginEditor = {
    registerNode: registerNode,
    testConnection: testConnection,
    isUrl: isUrl,
    isPacing: isPacing,
    isDuration: isDuration,
    durationField: durationField,
    /** The config node's credentials and default URLs, as the runtime declares them. */
    credentials: SHARED.credentials,
    defaults: SHARED.defaults,
    /** What the settings pickers (morelogin-settings-pickers.js) share with the other pickers. */
    shared: { t: t, settingsForConfig: settingsForConfig, post: post, message: message, option: option, failureText: failureText },
  };
})();
