/* A reader about to follow a link to an exercise (the contents' "Practice", an exercise in the list of every
 * exercise) first rests the pointer on it, touches it or tabs to it: the practice worker starts then, a few hundred
 * ms before the jump that would start it (page.js), as instant.page fetches a page on hover. Where memory is short
 * (memoryToSpare) a link's promise is not enough: the worker waits for the exercise itself. */
import { memoryToSpare } from "../engine-client.js";
import { warmUp } from "./engine.js";

// A link the pointer has rested on this long is followed about half the time (instant.page's measure); a pointer
// only passing over the contents leaves sooner.
const RESTED_MS = 65;
const TO_AN_EXERCISE = /^#(practice|exercise-.+)$/; // the ids layerwise_build gives the section and each exercise

let watching = false;

/* Once per tab: the listeners are on the document, which instant navigation keeps. */
export function startOnIntent() {
  if (watching || !memoryToSpare()) return;
  watching = true;
  let resting = null; // {link, timer} while the pointer or the focus is on a link to an exercise
  const arrive = (event) => {
    const link = linkOf(event.target);
    if (!link || link === (resting && resting.link) || !leadsToAnExercise(link)) return;
    if (resting) clearTimeout(resting.timer);
    resting = { link, timer: setTimeout(warmUp, RESTED_MS) };
  };
  const leave = (event) => {
    if (!resting || linkOf(event.target) !== resting.link || resting.link.contains(event.relatedTarget)) return;
    clearTimeout(resting.timer);
    resting = null;
  };
  document.addEventListener("pointerover", arrive, { passive: true });
  document.addEventListener("focusin", arrive);
  for (const type of ["pointerout", "pointercancel", "focusout"]) document.addEventListener(type, leave, { passive: true });
}

function linkOf(node) {
  return node instanceof Element ? node.closest("a[href]") : null;
}

function leadsToAnExercise(link) {
  const url = new URL(link.href, location.href);
  return url.origin === location.origin && TO_AN_EXERCISE.test(url.hash);
}
