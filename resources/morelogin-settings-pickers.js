/* The createAdvanced settings pickers of the profile node's dialog: a list to choose, suggestions from
 * MoreLogin (the `catalogue/` and `pick/` admin routes), the choice written into the settings JSON.
 * Loaded after morelogin-editor.js by the dialogs that have a settings field (scripts/editor-html.mjs). */
(function () {
  "use strict";
  var editor = window.MoreLoginEditor;
  if (!editor || editor.settingsPickers) return;
  var shared = editor.shared;

  /** The profile's advancedSetting in `settings`, made when missing. */
  function advanced(settings) {
    if (!settings.advancedSetting || typeof settings.advancedSetting !== "object") settings.advancedSetting = {};
    return settings.advancedSetting;
  }

  /** How a value picked from MoreLogin goes into a profile's settings (the createAdvanced body). */
  var SETTINGS_APPLY = {
    kernels: function (settings, id) {
      var parts = id.split(":");
      settings.browserTypeId = Number(parts[0]);
      settings.browserCore = Number(parts[1]);
    },
    timeZones: function (settings, id) {
      advanced(settings).time_zone = { switcher: 2, value: id };
    },
    languages: function (settings, id) {
      advanced(settings).language = { switcher: 2, value: id };
    },
    resolutions: function (settings, id) {
      advanced(settings).resolution = { switcher: 2, id: id };
    },
    sites: function (settings, id) {
      var parts = id.split(":");
      settings.accountInfo = $.extend(settings.accountInfo && typeof settings.accountInfo === "object" ? settings.accountInfo : {}, { platformId: parts[0], siteId: parts[1] });
    },
    mobileDevices: function (settings, id) {
      advanced(settings).mobile_device = id;
    },
    groups: function (settings, id) {
      settings.groupId = id;
    },
    tags: function (settings, id) {
      var tags = Array.isArray(settings.tagIds) ? settings.tagIds : [];
      settings.tagIds = tags
        .filter(function (tag) {
          return tag !== id;
        })
        .concat([id]);
    },
    proxies: function (settings, id) {
      settings.proxyId = id;
    },
  };
  /** The pickers that read the team's lists (the `pick/` route); the others read the desktop client's catalogues. */
  var TEAM_LISTS = { groups: true, tags: true, proxies: true };

  /** The settings JSON in the dialog as an object, or null when it is not a fixed JSON object. */
  function settingsObject(name) {
    if (($("#node-input-" + name + "Type").val() || "json") !== "json") return null;
    var text = String($("#node-input-" + name).typedInput("value") || "").trim();
    var value;
    try {
      value = text === "" ? {} : JSON.parse(text);
      return value && typeof value === "object" && !Array.isArray(value) ? value : null;
    } catch (_error) {
      return null;
    }
  }

  /**
   * The row under a profile's settings: choose a list, type to search it, pick a suggestion, and the
   * value goes into the settings JSON (time zones, languages and resolutions for the OS the settings name).
   * Anything can still be typed into the JSON itself.
   */
  function settingsPickers(field) {
    var list = $("#node-input-" + field.name + "-pick-list");
    var input = $("#node-input-" + field.name + "-pick");
    var found = {};
    input.autoComplete({
      minLength: 0,
      search: function (value, done) {
        var config = shared.settingsForConfig($("#node-input-server").val());
        if (!config) return done(shared.message(shared.t("morelogin.picker.chooseConfig")));
        var settings = settingsObject(field.name);
        if (!settings) return done(shared.message(shared.t("morelogin.settingsPicker.notJson")));
        var chosen = list.val();
        var path = TEAM_LISTS[chosen] ? "pick/" + chosen : "catalogue/" + chosen;
        var ua = settings.advancedSetting && typeof settings.advancedSetting.ua === "string" ? settings.advancedSetting.ua : undefined;
        shared
          .post(path, $.extend({ q: value, os: settings.operatorSystemId || 1, ua: ua }, config))
          .done(function (reply) {
            var items = reply.items || [];
            items.forEach(function (item) {
              found[item.id] = item;
            });
            done(items.length ? items.map(shared.option) : shared.message(shared.t("morelogin.picker.none")));
          })
          .fail(function (xhr) {
            done(shared.message(shared.failureText(xhr)));
          });
      },
    });
    input.on("change", function () {
      var id = String(input.val() || "");
      var settings = settingsObject(field.name);
      if (!found[id] || !settings) return;
      SETTINGS_APPLY[list.val()](settings, id);
      $("#node-input-" + field.name).typedInput("value", JSON.stringify(settings, null, 2));
      input.val("");
    });
  }

  /** Settings saved in the flow (a fixed JSON value) must be a JSON object and hold no account secret: flows.json is not the place for one. */
  function settingsValid(name) {
    return function (value) {
      var type = $("#node-input-" + name + "Type").val() || this[name + "Type"] || "json";
      if (type !== "json" || String(value || "").trim() === "") return true;
      var parsed;
      var account;
      try {
        parsed = JSON.parse(value);
        account = parsed && parsed.accountInfo;
        return Boolean(parsed) && typeof parsed === "object" && !Array.isArray(parsed) && !(account && (account.password || account.otpSecret));
      } catch (_error) {
        return false;
      }
    };
  }

  editor.settingsPickers = settingsPickers;
  editor.settingsValid = settingsValid;
})();
