//! The few WebDriver (W3C) calls the suite needs, over plain HTTP.

use base64::Engine;
use serde_json::{json, Value};
use std::path::Path;

/// The longest any one WebDriver call may take (a cold window start included).
pub const CALL_LIMIT: std::time::Duration = std::time::Duration::from_secs(120);

const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// How a call that got no answer within [`CALL_LIMIT`] begins its error: the window (or its
/// driver) stopped answering, which CI has seen about once a run and never here.
pub const HUNG: &str = "the window stopped answering WebDriver";

/// Changes one invisible pixel in the window's corner (outside the page's `body`, ignored by
/// pointers and assistive tech) every 100 ms for 3 s: see [`Session::try_screenshot`].
const PAINT_ONE_PIXEL: &str = "let p = document.getElementById('e2e-paint-pixel'); \
    if (!p) { p = document.createElement('div'); p.id = 'e2e-paint-pixel'; \
    p.setAttribute('aria-hidden', 'true'); \
    p.style.cssText = 'position:fixed;left:0;top:0;width:1px;height:1px;pointer-events:none;z-index:2147483647'; \
    document.documentElement.appendChild(p); } \
    clearInterval(window.__e2ePaint); let n = 0; \
    window.__e2ePaint = setInterval(() => { \
      p.style.background = p.style.background === 'rgba(0, 0, 0, 0.01)' ? 'rgba(0, 0, 0, 0.02)' : 'rgba(0, 0, 0, 0.01)'; \
      if (++n >= 30) { clearInterval(window.__e2ePaint); } }, 100); \
    return 0;";

pub struct Session {
    base: String,
    agent: ureq::Agent,
    /// Set by the first call that got no answer in time: what is read after that would wait
    /// [`CALL_LIMIT`] again.
    hung: std::sync::atomic::AtomicBool,
}

#[derive(Clone, Debug)]
pub struct Element(String);

/// A failed WebDriver call: the W3C error code (`no such element`, …; empty when the driver
/// gave none, e.g. the connection failed) and the whole message.
struct Failure {
    code: String,
    text: String,
}

/// The element was replaced between finding it and reading it (a re-render): the polls that
/// find-then-read absorb it by reading again; any other error is the test's failure.
const STALE: &str = "stale element reference";

impl Element {
    /// The element as a script argument (`arguments[i]` in [`Session::execute`]).
    pub fn to_json(&self) -> Value {
        json!({ ELEMENT_KEY: self.0 })
    }
}

/// Why no session was opened.
#[derive(Debug)]
pub enum Refused {
    /// The driver dropped the request before answering (a port another window's WebKitWebDriver
    /// had just taken): the one failure a retry may hide.
    Dropped(String),
    /// The driver answered without a session: the app itself did not come up.
    NoSession(String),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Dropped(e) | Refused::NoSession(e) => f.write_str(e),
        }
    }
}

impl Session {
    pub fn new(driver_url: &str, app: &str, args: &[&str]) -> Self {
        Self::try_new(driver_url, app, args).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Like [`Self::new`], but a driver that drops the request is an error to retry.
    pub fn try_new(driver_url: &str, app: &str, args: &[&str]) -> Result<Self, Refused> {
        // No WebDriver call may hang a run: a window that stops answering fails its test.
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(CALL_LIMIT))
            .build()
            .into();
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "wry",
            "tauri:options": {"application": app, "args": args}
        }}});
        let url = format!("{driver_url}/session");
        // The request itself lost (the driver dropped the connection): the known race, worth
        // one more try. A request that timed out waited for an app that never came up: not it.
        let dropped = |e: ureq::Error| match e {
            ureq::Error::Timeout(_) => Refused::NoSession(format!("POST {url}: {e}")),
            e => Refused::Dropped(format!("POST {url}: {e}")),
        };
        let mut reply = agent.post(&url).send_json(&caps).map_err(dropped)?;
        let reply: Value = reply.body_mut().read_json().map_err(dropped)?;
        // An answer without a session: the app did not start (a crash, a refusal). Never retried.
        let id = reply["value"]["sessionId"]
            .as_str()
            .ok_or_else(|| Refused::NoSession(format!("no WebDriver session: {reply}")))?
            .to_string();
        Ok(Session {
            base: format!("{driver_url}/session/{id}"),
            agent,
            hung: Default::default(),
        })
    }

    /// A session with the driver's own capabilities (e.g. WebKitWebDriver attached to a running
    /// browser); an answer without a session is the error.
    pub fn with_capabilities(driver_url: &str, caps: Value) -> Result<Self, String> {
        Self::with_capabilities_within(driver_url, caps, CALL_LIMIT)
    }

    /// Like [`Self::with_capabilities`], every call of the session limited to `limit`.
    pub fn with_capabilities_within(
        driver_url: &str,
        caps: Value,
        limit: std::time::Duration,
    ) -> Result<Self, String> {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(limit))
            .build()
            .into();
        let url = format!("{driver_url}/session");
        let mut reply = agent
            .post(&url)
            .send_json(&caps)
            .map_err(|e| format!("POST {url}: {e}"))?;
        let reply: Value = reply
            .body_mut()
            .read_json()
            .map_err(|e| format!("POST {url}: {e}"))?;
        let id = reply["value"]["sessionId"]
            .as_str()
            .ok_or_else(|| format!("no WebDriver session: {reply}"))?
            .to_string();
        Ok(Session {
            base: format!("{driver_url}/session/{id}"),
            agent,
            hung: Default::default(),
        })
    }

    fn call(&self, method: &str, path: &str, body: Value) -> Result<Value, String> {
        self.try_call(method, path, body).map_err(|f| f.text)
    }

    fn try_call(&self, method: &str, path: &str, body: Value) -> Result<Value, Failure> {
        let failed = |text: String| Failure {
            code: String::new(),
            text,
        };
        // No answer in time: marked, so the failure says so and nothing waits on it again.
        let lost = |e: ureq::Error| {
            if matches!(e, ureq::Error::Timeout(_)) {
                self.hung.store(true, std::sync::atomic::Ordering::SeqCst);
                failed(format!("{HUNG}: {method} {path}: {e}"))
            } else {
                failed(format!("{method} {path}: {e}"))
            }
        };
        let url = format!("{}{path}", self.base);
        let reply = if method == "GET" {
            self.agent.get(&url).call()
        } else if method == "DELETE" {
            self.agent.delete(&url).call()
        } else {
            self.agent.post(&url).send_json(&body)
        };
        let mut reply = reply.map_err(lost)?;
        let status = reply.status();
        let v: Value = reply.body_mut().read_json().map_err(lost)?;
        if status.is_success() {
            Ok(v["value"].clone())
        } else {
            Err(Failure {
                code: v["value"]["error"].as_str().unwrap_or_default().to_string(),
                text: format!("{method} {path}: {}", v["value"]),
            })
        }
    }

    /// The first element matching `css`, or `None` when there is none. Any other WebDriver
    /// error (the window gone, a bad selector) panics: it is not "not there yet".
    pub fn find(&self, css: &str) -> Option<Element> {
        self.try_find(css)
            .unwrap_or_else(|e| panic!("finding {css}: {e}"))
    }

    /// Like [`Self::find`], with the error returned: for a window that may be gone (a drop).
    pub fn try_find(&self, css: &str) -> Result<Option<Element>, String> {
        let mut tries = 0;
        loop {
            match self.try_call(
                "POST",
                "/element",
                json!({"using": "css selector", "value": css}),
            ) {
                Ok(v) => return Ok(v[ELEMENT_KEY].as_str().map(|id| Element(id.to_string()))),
                Err(f) if f.code == "no such element" => return Ok(None),
                // The match left the page while the driver made its handle (seen in CI as a
                // title card ended): asked again, the page answers as it is now.
                Err(f) if f.code == "stale element reference" && tries < 3 => tries += 1,
                Err(f) => return Err(f.text),
            }
        }
    }

    /// Every element matching `css` (none is an empty list, not an error); errors panic.
    pub fn find_all(&self, css: &str) -> Vec<Element> {
        let v = self
            .call(
                "POST",
                "/elements",
                json!({"using": "css selector", "value": css}),
            )
            .unwrap_or_else(|e| panic!("finding all {css}: {e}"));
        v.as_array()
            .unwrap_or_else(|| panic!("finding all {css}: not a list: {v}"))
            .iter()
            .filter_map(|e| e[ELEMENT_KEY].as_str().map(|id| Element(id.to_string())))
            .collect()
    }

    /// The element's rendered text. A replaced (stale) element reads as "" so a poll reads
    /// again; any other error panics.
    pub fn text(&self, el: &Element) -> String {
        self.try_text(el).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Like [`Self::text`], with the error returned: for a window that may be gone (a drop).
    pub fn try_text(&self, el: &Element) -> Result<String, String> {
        match self.try_call("GET", &format!("/element/{}/text", el.0), Value::Null) {
            Ok(v) => v
                .as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("the element's text is not text: {v}")),
            Err(f) if f.code == STALE => Ok(String::new()),
            Err(f) => Err(format!("reading the text: {}", f.text)),
        }
    }

    /// The attribute's value, `None` when the element has no such attribute (or was replaced,
    /// so a poll reads again); any other error panics.
    pub fn attr(&self, el: &Element, name: &str) -> Option<String> {
        match self.try_call(
            "GET",
            &format!("/element/{}/attribute/{name}", el.0),
            Value::Null,
        ) {
            Ok(v) => v.as_str().map(str::to_string),
            Err(f) if f.code == STALE => None,
            Err(f) => panic!("reading the attribute {name}: {}", f.text),
        }
    }

    /// Whether a form control can be used (its `disabled` property is false). An error panics:
    /// read as `false` it would pass every "not enabled yet" assertion.
    pub fn is_enabled(&self, el: &Element) -> bool {
        let v = self
            .execute_on(el, "return !arguments[0].disabled")
            .unwrap_or_else(|e| panic!("reading whether a control is enabled: {e}"));
        v.as_bool()
            .unwrap_or_else(|| panic!("`!disabled` was not a boolean: {v}"))
    }

    pub fn click(&self, el: &Element) {
        if let Err(e) = self.call("POST", &format!("/element/{}/click", el.0), json!({})) {
            // Studio's crash banner over everything: its text (with the stack) is the finding.
            let crash = self
                .try_find("#crash")
                .ok()
                .flatten()
                .and_then(|c| self.try_text(&c).ok());
            match crash {
                Some(c) => panic!("click: the window crashed: {c}"),
                None => panic!("click: {e}"),
            }
        }
    }

    pub fn type_text(&self, el: &Element, text: &str) {
        self.call(
            "POST",
            &format!("/element/{}/value", el.0),
            json!({"text": text}),
        )
        .expect("send keys");
    }

    /// Presses keys on whatever has focus, as a person does (W3C actions, no element named):
    /// each chord's keys go down in order and come up in reverse (`&["Alt", "i"]`), one chord
    /// after another. Names: `Tab`, `Enter`, `Escape`, `Alt`, `Shift`, `Control`, `F1`,
    /// `ArrowLeft/Right/Up/Down`; anything else is typed as it is, one character at a time.
    pub fn press(&self, chords: &[&[&str]]) {
        let mut actions = Vec::new();
        for chord in chords {
            let keys: Vec<String> = chord.iter().flat_map(|k| key_values(k)).collect();
            if chord.len() == 1 && keys.len() > 1 {
                // A word: each character pressed and let go.
                for k in &keys {
                    actions.push(json!({"type": "keyDown", "value": k}));
                    actions.push(json!({"type": "keyUp", "value": k}));
                }
                continue;
            }
            for k in &keys {
                actions.push(json!({"type": "keyDown", "value": k}));
            }
            for k in keys.iter().rev() {
                actions.push(json!({"type": "keyUp", "value": k}));
            }
        }
        let body = json!({"actions": [{"type": "key", "id": "keyboard", "actions": actions}]});
        self.call("POST", "/actions", body)
            .unwrap_or_else(|e| panic!("pressing {chords:?}: {e}"));
        let _ = self.call("DELETE", "/actions", json!({}));
    }

    /// What has focus, as a person would point at it: `#id`, else `tag.class…`, with its
    /// text's start (empty when nothing but the page has focus).
    pub fn focused(&self) -> String {
        let v = self
            .execute(
                "const a = document.activeElement;
                 if (!a || a === document.body) return '';
                 const name = a.id ? '#' + a.id
                     : a.tagName.toLowerCase() + [...a.classList].map(c => '.' + c).join('');
                 return name;",
                json!([]),
            )
            .unwrap_or_else(|e| panic!("reading what has focus: {e}"));
        v.as_str()
            .unwrap_or_else(|| panic!("the focused element's name was not text: {v}"))
            .to_owned()
    }

    /// Empties a field. An error panics: ignored, the text typed next would land after what
    /// the field already held.
    pub fn clear(&self, el: &Element) {
        self.call("POST", &format!("/element/{}/clear", el.0), json!({}))
            .unwrap_or_else(|e| panic!("clearing a field: {e}"));
    }

    /// Runs a script in the page (synchronously) and returns its value.
    pub fn execute(&self, script: &str, args: Value) -> Result<Value, String> {
        self.call(
            "POST",
            "/execute/sync",
            json!({"script": script, "args": args}),
        )
    }

    /// Runs `script` with `el` as `arguments[0]` and returns its value.
    pub fn execute_on(&self, el: &Element, script: &str) -> Result<Value, String> {
        self.execute(script, json!([el.to_json()]))
    }

    /// A computed style property of `el` (camelCase, e.g. `borderLeftColor`).
    pub fn computed_style(&self, el: &Element, property: &str) -> String {
        let v = self
            .execute(
                "return getComputedStyle(arguments[0])[arguments[1]];",
                json!([el.to_json(), property]),
            )
            .unwrap_or_else(|e| panic!("reading the style {property}: {e}"));
        v.as_str()
            .unwrap_or_else(|| panic!("the style {property} is not a string: {v}"))
            .to_string()
    }

    /// Scrolls `el` to the middle of its scroller (so a screenshot shows all of it).
    pub fn scroll_into_view(&self, el: &Element) {
        let _ = self.execute_on(
            el,
            "arguments[0].scrollIntoView({block: 'center', inline: 'nearest'});",
        );
    }

    /// Switches into the iframe `el` (WebDriver POST /frame); later finds and scripts run there.
    pub fn switch_to_frame(&self, el: &Element) -> Result<(), String> {
        self.call("POST", "/frame", json!({ "id": { ELEMENT_KEY: el.0 } }))
            .map(|_| ())
    }

    /// Back to the top-level document. An error panics: later reads would run in the frame.
    pub fn switch_to_top(&self) {
        self.call("POST", "/frame", json!({ "id": null }))
            .unwrap_or_else(|e| panic!("back to the top document: {e}"));
    }

    /// Saves a PNG of the window. An error panics (an empty file is no picture of anything).
    pub fn screenshot(&self, path: &Path) {
        self.try_screenshot(path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }

    /// Like [`Self::screenshot`], with the error returned: for a window that may be gone (the
    /// picture taken as a test fails).
    pub fn try_screenshot(&self, path: &Path) -> Result<(), String> {
        // WebKit's driver takes the picture at the window's next drawing, and an idle window
        // draws nothing: with no clock ticking and no status repainted, the call waited
        // forever (five windows in one CI run). A pixel no one sees changes for the next 3 s,
        // so there is a next drawing. Best effort: a window that is gone fails below anyway.
        let _ = self.execute(PAINT_ONE_PIXEL, json!([]));
        let b64 = self.call("GET", "/screenshot", Value::Null)?;
        let b64 = b64
            .as_str()
            .ok_or_else(|| format!("the screenshot is not a string: {b64}"))?;
        let png = base64::engine::general_purpose::STANDARD
            .decode(b64)
            .map_err(|e| format!("the screenshot is not base64: {e}"))?;
        std::fs::write(path, png).map_err(|e| format!("writing the screenshot: {e}"))
    }
}

/// How long closing a session may take: the window is ended by its tag right after, so a
/// driver that does not answer the close (seen under load after a page reload) costs this much,
/// not [`CALL_LIMIT`].
const CLOSE_LIMIT: std::time::Duration = std::time::Duration::from_secs(10);

impl Session {
    /// Whether a call got no answer in time (see [`HUNG`]).
    pub fn hung(&self) -> bool {
        self.hung.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Whether the window answers a trivial script within `limit`: a window that got its
    /// session but never answers is a failed start, like a dropped session request.
    pub fn answers_within(&self, limit: std::time::Duration) -> Result<(), String> {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(limit))
            .build()
            .into();
        let url = format!("{}/execute/sync", self.base);
        agent
            .post(&url)
            .send_json(json!({"script": "return document.readyState;", "args": []}))
            .map(|_| ())
            .map_err(|e| format!("POST {url}: {e}"))
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self
            .agent
            .delete(&self.base)
            .config()
            .timeout_global(Some(CLOSE_LIMIT))
            .build()
            .call();
    }
}

/// The WebDriver key values of one key name (a word gives one value per character).
fn key_values(name: &str) -> Vec<String> {
    let special = match name {
        "Tab" => "\u{E004}",
        "Enter" => "\u{E007}",
        "Escape" => "\u{E00C}",
        "Shift" => "\u{E008}",
        "Control" => "\u{E009}",
        "Alt" => "\u{E00A}",
        "ArrowLeft" => "\u{E012}",
        "ArrowUp" => "\u{E013}",
        "ArrowRight" => "\u{E014}",
        "ArrowDown" => "\u{E015}",
        "F1" => "\u{E031}",
        _ => return name.chars().map(String::from).collect(),
    };
    vec![special.to_owned()]
}
