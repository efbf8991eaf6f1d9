/* The keys of the matrices, told to screen readers as every grid's description (one hidden #lw-grid-help per page,
 * named by aria-describedby). Sighted readers with a mouse or a keyboard read them in the line the build writes under
 * each widget's inputs (layerwise_build/livewidgets/render.py). */
import { GRID_HELP } from "./widget-keys.js";

export const HELP_ID = "lw-grid-help";

/* A new page (a load or an instant navigation): its description. */
export function setUpHelp() {
  if (document.getElementById(HELP_ID)) return;
  const help = document.createElement("p");
  help.id = HELP_ID;
  help.hidden = true;
  help.textContent = GRID_HELP;
  document.body.append(help);
}
