// The Node.js half of layerwise_build/mathrender: KaTeX from node_modules renders one request per line of stdin,
// {"tex": "...", "display": true}, and answers on one line of stdout, {"html": "..."} or {"error": "..."}.
import { createRequire } from "node:module";
import { createInterface } from "node:readline";

const katex = createRequire(import.meta.url)("katex");

for await (const line of createInterface({ input: process.stdin })) {
  const { tex, display } = JSON.parse(line);
  let answer;
  try {
    answer = { html: katex.renderToString(tex, { displayMode: display, throwOnError: true }) };
  } catch (error) {
    answer = { error: String(error.message || error) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
