/* Where edited values live between visits: the URL fragment (`#lw-<id>=<json>&...`, a link that reproduces the
 * page's examples) and localStorage per page and widget. The link wins over storage when both hold a widget, unless
 * this tab left the page before its link caught up with the storage (see scheduleLink). */
import * as cells from "./cells.js";
import { atNextPause, runNow } from "./widget-pause.js";

const STORAGE_PREFIX = "layerwise:";
// sessionStorage (this tab, kept by a reload and by going back): pathname -> the fragment its link still held when
// the page's values last changed, until the link is rewritten
const BEHIND_PREFIX = "layerwise:link-behind:";

function storageKey(id) {
  return STORAGE_PREFIX + location.pathname + ":" + id;
}

/* The values saved for widget `id`, from the link first, then from localStorage; undefined when there are none. */
export function savedValues(id) {
  const fromLink = linkIsBehind() ? undefined : cells.readFragment(location.hash)[id];
  if (fromLink !== undefined) return fromLink;
  try {
    return JSON.parse(localStorage.getItem(storageKey(id)) || "null") || undefined;
  } catch (e) {
    return undefined;
  }
}

/* Remember a widget's values (or forget them when they are the starting ones). */
export function storeValues(id, values, atStart) {
  try {
    if (atStart) localStorage.removeItem(storageKey(id));
    else localStorage.setItem(storageKey(id), JSON.stringify(values));
  } catch (e) { /* storage full or disabled: the URL still holds the state */ }
}

/* Rewrite the link from `edited()`, {widget id: values} of the page's edited widgets, once typing pauses, not with
 * every result: history.replaceState brings the whole page's style up to date at once (~5 ms on Attention, up to
 * ~18), which delayed the result's frame (scripts/bench/HISTORY.md). Until then the tab notes that this page's link
 * is behind its storage, so that a reload or a return before the pause restores the newer values from storage. */
export function scheduleLink(edited) {
  const path = location.pathname;
  if (sessionValue(BEHIND_PREFIX + path) === null) setSessionValue(BEHIND_PREFIX + path, location.hash);
  atNextPause("link", () => {
    if (location.pathname === path) writeLink(edited()); // not once the reader has gone to another page
  });
}

/* The link waiting for the pause, written now (the reader copies it). */
export function writePendingLink() {
  runNow("link");
}

/* On a page's set-up, after its widgets read their values: a link left behind is rewritten from them. */
export function catchUpLink(edited) {
  if (linkIsBehind()) writeLink(edited());
  else setSessionValue(BEHIND_PREFIX + location.pathname, null); // a link opened since: it was followed
}

function linkIsBehind() {
  return sessionValue(BEHIND_PREFIX + location.pathname) === location.hash;
}

/* Rewrite the fragment from {widget id: values}, keeping an ordinary anchor. */
function writeLink(edited) {
  const fragment = cells.writeFragment(edited);
  const keep = location.hash && !location.hash.startsWith("#lw-") ? location.hash : "";
  history.replaceState(history.state, "", location.pathname + location.search + (fragment ? "#" + fragment : keep));
  setSessionValue(BEHIND_PREFIX + location.pathname, null);
}

// sessionStorage may be disabled: the link is then written as before, only later.
function sessionValue(key) {
  try { return sessionStorage.getItem(key); } catch (e) { return null; }
}

/* `value` null forgets the key. */
function setSessionValue(key, value) {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch (e) { /* see sessionValue */ }
}
