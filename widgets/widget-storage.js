/* Where edited values live between visits: the URL fragment (`#lw-<id>=<json>&...`, a link that reproduces the
 * page's examples) and localStorage per page and widget. The link wins over storage when both hold a widget. */
import * as cells from "./cells.js";

const STORAGE_PREFIX = "layerwise:";

function storageKey(id) {
  return STORAGE_PREFIX + location.pathname + ":" + id;
}

/* The values saved for widget `id`, from the link first, then from localStorage; undefined when there are none. */
export function savedValues(id) {
  const fromLink = cells.readFragment(location.hash)[id];
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

/* Rewrite the fragment from {widget id: values} of the page's edited widgets, keeping an ordinary anchor. */
export function writeLink(edited) {
  const fragment = cells.writeFragment(edited);
  const keep = location.hash && !location.hash.startsWith("#lw-") ? location.hash : "";
  history.replaceState(history.state, "", location.pathname + location.search + (fragment ? "#" + fragment : keep));
}
