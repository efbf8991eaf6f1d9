/* The loss chart of "Build your GPT": the build drew the axes and the engine's curve into the SVG with fixed
 * geometry (its data attributes); this maps steps and losses to the same pixels, redraws the engine's curve when the
 * settings change, and appends the learner's points at most once per animation frame. */
export class LossChart {
  constructor(svg) {
    this.svg = svg;
    const number = (name) => Number(svg.dataset[name]);
    Object.assign(this, { left: number("left"), right: number("right"), top: number("top"),
                          bottom: number("bottom"), low: number("low"), high: number("high") });
    this.steps = number("steps");
    this.reference = svg.querySelector(".lw-capstone__reference");
    this.yours = svg.querySelector(".lw-capstone__yours");
    this.ticks = [...svg.querySelectorAll(".lw-capstone__xtick")];
    this.text = ""; // the learner's points so far
    this.frame = 0;
  }

  point(step, loss) {
    const clamped = Math.min(Math.max(loss, this.low), this.high);
    const x = this.left + (this.right - this.left) * step / this.steps;
    const y = this.top + (this.bottom - this.top) * (this.high - clamped) / (this.high - this.low);
    return `${x.toFixed(1)},${y.toFixed(1)}`;
  }

  /* A new run of `steps` steps whose engine's curve is `losses` (one per step). */
  reset(steps, losses) {
    this.steps = steps;
    this.ticks.forEach((tick, i) => { tick.textContent = String(Math.round(steps * i / (this.ticks.length - 1))); });
    this.reference.setAttribute("points", losses.map((loss, i) => this.point(i + 1, loss)).join(" "));
    this.text = "";
    this.yours.setAttribute("points", "");
  }

  /* The learner's losses of steps first+1, first+2, ...; a null (not finite) loss is left out. */
  append(first, losses) {
    const added = losses.map((loss, i) => (loss === null ? "" : this.point(first + i + 1, loss))).filter(Boolean);
    if (!added.length) return;
    this.text += (this.text ? " " : "") + added.join(" ");
    if (!this.frame) {
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        this.yours.setAttribute("points", this.text);
      });
    }
  }
}
