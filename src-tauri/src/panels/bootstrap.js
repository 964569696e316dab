// Loreweaver panel bootstrap (in-frame API version "1"). Served per mount; talks to the host
// only by postMessage, checking the nonce and that messages come from the parent window.
(function () {
  "use strict";
  var PANEL = __PANEL__;
  var NONCE = __NONCE__;
  var host = window.parent;
  var readyPromise = null;
  var resolveReady = null;
  var acked = false;
  var lastState;
  var hasState = false;
  var stateCbs = [];
  var eventCbs = [];
  var buffered = [];
  var reported = false;

  function post(type, fields) {
    var m = { lw: "1", nonce: NONCE, type: type };
    if (fields) { for (var k in fields) { if (Object.prototype.hasOwnProperty.call(fields, k)) { m[k] = fields[k]; } } }
    try { host.postMessage(m, "*"); } catch (e) { /* the host went away */ }
  }
  function report(err) {
    if (reported) { return; }
    reported = true;
    var text = String((err && err.message) || err || "error").slice(0, 200);
    post("panel_error", { message: text });
  }
  function call(cb, v) { try { cb(v); } catch (e) { report(e); } }
  function applyTheme(theme) {
    var vars = theme && theme.vars;
    if (!vars || typeof vars !== "object") { return; }
    var root = document.documentElement;
    for (var name in vars) {
      if (/^--lw-[a-z-]+$/.test(name) && typeof vars[name] === "string") { root.style.setProperty(name, vars[name]); }
    }
  }

  // A person's click or key in this page: the host weighs it (with its own evidence) before
  // letting an intent go out in their name. Only the browser can make an event trusted.
  function gesture(e) { if (e && e.isTrusted) { post("gesture", {}); } }
  window.addEventListener("pointerdown", gesture, true);
  window.addEventListener("keydown", gesture, true);
  window.addEventListener("error", function (e) { report(e && (e.message || e.error)); });
  window.addEventListener("unhandledrejection", function (e) { report(e && e.reason); });
  window.addEventListener("message", function (ev) {
    if (ev.source !== host) { return; }
    var d = ev.data;
    if (!d || typeof d !== "object" || d.lw !== "1" || d.nonce !== NONCE) { return; }
    if (d.type === "ready_ack") {
      if (acked) { return; }
      acked = true;
      applyTheme(d.theme);
      if (resolveReady) { resolveReady({ panel: d.panel, locale: d.locale, theme: d.theme }); }
    } else if (d.type === "state") {
      lastState = d.state;
      hasState = true;
      stateCbs.slice().forEach(function (cb) { call(cb, d.state); });
    } else if (d.type === "event") {
      if (eventCbs.length === 0) {
        buffered.push(d.payload);
        if (buffered.length > 32) { buffered.shift(); }
      } else {
        eventCbs.slice().forEach(function (cb) { call(cb, d.payload); });
      }
    } else if (d.type === "theme") {
      applyTheme(d.theme);
    }
  });

  var api = Object.freeze({
    version: "1",
    ready: function () {
      if (!readyPromise) {
        readyPromise = new Promise(function (resolve) { resolveReady = resolve; });
        post("ready", { panel: PANEL });
      }
      return readyPromise;
    },
    onState: function (cb) {
      if (typeof cb !== "function") { return; }
      stateCbs.push(cb);
      if (hasState) { call(cb, lastState); }
    },
    onEvent: function (cb) {
      if (typeof cb !== "function") { return; }
      eventCbs.push(cb);
      var queued = buffered;
      buffered = [];
      queued.forEach(function (p) { call(cb, p); });
    },
    send: function (kind, value) {
      post("intent", { kind: String(kind), value: String(value) });
    }
  });
  Object.defineProperty(window, "loreweaver", { value: api, writable: false, configurable: false, enumerable: true });
})();
