/* The keys of the matrices, told to everyone. Screen readers hear them as every grid's description (one hidden
 * #lw-grid-help per page, named by aria-describedby); sighted readers see them once per page, in a tip laid over the
 * page under the first matrix they enter (absolutely positioned, like a bad cell's message, so nothing moves), until
 * the focus leaves that matrix or they edit or press Escape. */
import { GRID_HELP, GRID_KEYS } from "./widget-keys.js";

export const HELP_ID = "lw-grid-help";

let tipShown = false; // on this page

/* A new page (a load or an instant navigation): its description, and the tip not shown yet. */
export function setUpHelp() {
  tipShown = false;
  if (document.getElementById(HELP_ID)) return;
  const help = document.createElement("p");
  help.id = HELP_ID;
  help.hidden = true;
  help.textContent = GRID_HELP;
  document.body.append(help);
}

/* The help in a line, for the eye only (screen readers have the description). */
export function helpTip() {
  const tip = document.createElement("p");
  tip.className = "lw-bubble lw-grid-tip";
  tip.textContent = GRID_KEYS;
  tip.setAttribute("aria-hidden", "true");
  tip.hidden = true;
  return tip;
}

/* True the first time it is asked on this page: then the tip is shown. */
export function firstGridFocus() {
  if (tipShown) return false;
  tipShown = true;
  return true;
}
