/* What a screen reader hears without moving: one polite live region per page, written only once typing has paused,
 * so a reader is told what an edit changed ("y and dx updated, 15 cells") or what is wrong, never every keystroke. */
import { atNextPause } from "./widget-pause.js";

let region = null;
const waiting = new Map(); // who (a widget's id, "engine") -> () => text, asked when the pause comes

/* Called when a page with widgets is set up: a region must exist before it speaks, or it may not be heard. */
export function liveRegion() {
  if (!region || !region.isConnected) { // instant navigation may have replaced the body's content
    region = document.createElement("p");
    region.className = "lw-sr-only lw-announcer";
    region.setAttribute("aria-live", "polite");
    document.body.append(region);
  }
  return region;
}

function flush() {
  const text = [...waiting.values()].map((makeText) => makeText()).filter(Boolean).join(" ");
  waiting.clear();
  if (text) liveRegion().textContent = text;
}

/* Say `makeText()` at the next pause in typing (at once when the reader is not typing), after what others asked
 * to say meanwhile; a later call by the same `who` replaces its earlier one still waiting. */
export function announce(who, makeText) {
  waiting.set(who, makeText);
  atNextPause("announcer", flush);
}

/* "y", "y and dx", "y, dx and db" */
export function listOfNames(names) {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}
