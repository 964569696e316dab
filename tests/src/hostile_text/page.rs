//! The scripts the hostile-text suite runs in the window: one install, one pass per scroll
//! position, one verdict (few WebDriver round trips for thousands of checks).

/// Stores the checks in the page as `window.__lw` with `pass()`, which reads every selector once
/// and records each check that is satisfied (kept across passes: the transcript's window moves).
/// Opens the gallery (its grid is the only place every picture's name shows).
pub const INSTALL: &str = r##"
const [payloads, sels, checks, countSels, mdShown, clipped] = arguments;
const lw = window.__lw = { payloads, sels, checks, countSels, mdShown, clipped,
  seen: checks.map(() => null), clipSeen: clipped.map(() => null), max: {}, ids: {} };
const ACTIVE = 'script,style,iframe,frame,frameset,object,embed,applet,form,input,textarea,select,'
  + 'button,img,picture,svg,math,video,audio,source,track,details,dialog,marquee,a,area,link,meta,'
  + 'base,body,template,noscript,keygen,x';
// Where blocks meet, the page's text has line breaks a parser's text does not: compared without.
const squeeze = (s) => s.replace(/\s+/g, '');
const words = (s) => { const t = s.replace(/[_-]/g, ' ').trim(); return t.charAt(0).toUpperCase() + t.slice(1); };
lw.marker = (i, field) => 'Q' + String(i).padStart(2, '0') + '\u00b7' + field + '\u00b7';
lw.pass = () => {
  const cache = new Map();
  const texts = (sel, attr) => {
    const key = sel + '\n' + (attr || '');
    if (!cache.has(key)) {
      cache.set(key, [...document.querySelectorAll(sel)]
        .map((e) => [e, attr ? (e.getAttribute(attr) || '') : e.textContent]));
    }
    return cache.get(key);
  };
  checks.forEach(([s, attr, i, field, mode], k) => {
    if (lw.seen[k] === 'ok') { return; }
    const marker = lw.marker(i, field);
    const hit = texts(sels[s], attr).find(([, t]) => t.includes(marker));
    if (!hit) { return; }
    const [el, t] = hit;
    if (mode === 1) {
      const bad = el.querySelector(ACTIVE);
      if (bad) { lw.seen[k] = 'has an active <' + bad.tagName.toLowerCase() + '>'; return; }
      // What a reader sees (innerText: rendered text only), the marker then the payload.
      const seen = squeeze(el.innerText);
      const want = squeeze(marker + mdShown[i]);
      if (seen.includes(want)) { lw.seen[k] = 'ok'; return; }
      const at = Math.max(0, seen.indexOf(squeeze(marker)));
      lw.seen[k] = 'shows (whitespace removed) ' + JSON.stringify(seen.slice(at, at + Math.min(want.length + 40, 160)))
        + ', not ' + JSON.stringify(want.slice(0, 160));
      return;
    }
    const whole = marker + payloads[i];
    const want = mode === 2 ? words(whole) : whole;
    if (t.includes(want)) { lw.seen[k] = 'ok'; return; }
    const at = t.indexOf(marker);
    lw.seen[k] = 'shows ' + JSON.stringify(t.slice(at, at + Math.min(want.length + 40, 160)));
  });
  clipped.forEach(([s, want], k) => {
    if (lw.clipSeen[k] === 'ok') { return; }
    const els = texts(sels[s], null);
    if (els.some(([, t]) => t.includes(want))) { lw.clipSeen[k] = 'ok'; return; }
    lw.clipSeen[k] = els.length ? 'shows ' + JSON.stringify(els[0][1].slice(0, 80)) : 'missing';
  });
  // The transcript draws only what is near the viewport: an element in it counts once across
  // every scroll position, known by its line (the line's first marker) and its place in that
  // line. Elsewhere everything is drawn at once, and a pass's count is the count.
  const RE = /Q\d\d\u00b7[^\u00b7]+\u00b7/;
  for (const sel of countSels) {
    const els = [...document.querySelectorAll(sel)];
    const ids = lw.ids[sel] || (lw.ids[sel] = new Set());
    els.forEach((e) => {
      const line = e.closest('.transcript .entry');
      if (!line) { return; }
      const m = line.textContent.match(RE);
      const place = els.filter((x) => x.closest('.transcript .entry') === line).indexOf(e);
      ids.add((m ? m[0] : line.textContent.slice(0, 80)) + '#' + place);
    });
    lw.max[sel] = Math.max(lw.max[sel] || 0, els.length, ids.size);
  }
};
const open = document.getElementById('open-gallery');
if (open) { open.click(); }
return { checks: checks.length, gallery: !!open };
"##;

/// One pass where the page is now (a viewer or menu the test opened): what shows only there is
/// checked once.
pub const PASS: &str =
    "window.__lw.pass(); return window.__lw.seen.filter((x) => x !== 'ok').length;";

/// One pass, then a scroll up until the first line drawn sits at the bottom of the view: the
/// transcript draws what is near the viewport, a screen either side, so the lines drawn after the
/// scroll reach down to those drawn before it, even when an entry's real height (a 5,000-character
/// line) is far from its estimate. Says whether the pass saw the first line at the very top
/// (so every line was drawn and checked on the way) and the gallery.
pub const STEP: &str = r##"
const lw = window.__lw;
lw.pass();
const t = document.querySelector('.transcript');
const first = t ? t.querySelector('.entry') : null;
const seen = {
  top: !!first && first.textContent.includes(arguments[0]) && t.scrollTop === 0,
  gallery: !!document.getElementById('gallery'),
  remaining: lw.seen.filter((x) => x !== 'ok').length,
  scroll: t ? t.scrollTop : -1,
  firstText: first ? first.textContent.slice(0, 40) : null,
};
if (t) {
  // Up until the first line drawn now sits at the bottom of the view: what is drawn next reaches
  // down to it, whatever the estimates of the heights above were.
  const f = t.querySelector('.entry');
  const up = f ? Math.max(t.clientHeight / 4, t.getBoundingClientRect().bottom - 20 - f.getBoundingClientRect().top) : t.clientHeight;
  t.scrollTop = Math.max(0, t.scrollTop - up);
  t.dispatchEvent(new Event('scroll'));
}
return seen;
"##;

/// The last pass, what failed (grouped per field and selector), the counts, and whether anything
/// ran or reached the DOM as markup.
pub const VERDICT: &str = r##"
const lw = window.__lw;
lw.pass();
const groups = new Map();
lw.checks.forEach(([s, attr, i, field], k) => {
  if (lw.seen[k] === 'ok') { return; }
  const key = field + ' under ' + lw.sels[s] + (attr ? ' [' + attr + ']' : '');
  if (!groups.has(key)) { groups.set(key, { n: 0, first: lw.marker(i, field) + ' ' + (lw.seen[k] || 'missing') }); }
  groups.get(key).n += 1;
});
lw.clipped.forEach(([s, want, field], k) => {
  if (lw.clipSeen[k] === 'ok') { return; }
  groups.set(field + ' as visible text under ' + lw.sels[s],
    { n: 1, first: JSON.stringify(want) + ' ' + (lw.clipSeen[k] || 'missing') });
});
const main = document.querySelector('main');
const all = [...main.querySelectorAll('*')];
const control = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;
return {
  failed: [...groups].map(([key, g]) => key + ': ' + g.n + ' failed; first: ' + g.first),
  checks: lw.checks.length,
  clipped: lw.clipped.length,
  counts: lw.max,
  xss: window.__xss === undefined ? 0 : window.__xss,
  scripts: main.querySelectorAll('script').length,
  handlers: all.filter((e) => [...e.attributes].some((a) => a.name.startsWith('on'))).length,
  active: main.querySelectorAll('iframe, object, embed, form, meta, base, style, link').length,
  jsLinks: main.querySelectorAll('[href^="javascript"], [src^="javascript"]').length,
  controls: control.test(main.textContent) || all.some((e) => [...e.attributes].some((a) => control.test(a.value))),
  crash: !!document.getElementById('crash'),
};
"##;
