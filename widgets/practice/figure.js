/* A LAB figure reduced to drawing, bundled with DOMPurify at site-build time into figure.bundle.js
 * (layerwise_build/practice/bundle.py). The SVG comes from the practice worker, where the learner's code runs and may
 * have replaced the function that draws it, so it is untrusted markup: only the SVG elements and presentation
 * attributes the engine's line charts use (engine/examples/svg.py) are kept; no style, no link, no other namespace. */
import DOMPurify from "dompurify";

const SVG = "http://www.w3.org/2000/svg";
const ELEMENTS = ["svg", "rect", "line", "polyline", "text"];
// lower case: DOMPurify compares names lowered, as the HTML parser gives them (viewBox is read as viewbox)
const ATTRIBUTES = ["viewbox", "width", "height", "role", "aria-label", "x", "y", "x1", "x2", "y1", "y2", "points",
  "fill", "stroke", "stroke-width", "font-size", "text-anchor", "transform"];

/* The <svg> element to insert, or null when the text holds no single SVG drawing. */
export function drawingOnly(svgText) {
  if (typeof svgText !== "string") return null;
  const fragment = DOMPurify.sanitize(svgText, {
    ALLOWED_TAGS: ELEMENTS, ALLOWED_ATTR: ATTRIBUTES, ALLOW_DATA_ATTR: false, ALLOW_ARIA_ATTR: false,
    RETURN_DOM_FRAGMENT: true,
  });
  const svg = fragment.firstElementChild;
  if (fragment.childElementCount !== 1 || svg.namespaceURI !== SVG || svg.localName !== "svg") return null;
  return svg;
}
