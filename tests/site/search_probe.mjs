// Run by test_search_index.py: mkdocs-material's own search worker (the built site's
// assets/javascripts/workers/search.*.min.js, lunr inside) loaded in Node with the worker globals it uses, fed the
// built search index, asked one query. Prints the result groups (one per page, best first) as JSON:
// [[{location, score}, ...], ...]. Usage: node search_probe.mjs <built site folder> <query>
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import vm from "node:vm";

const SETUP = 0, QUERY = 2; // mkdocs-material's SearchMessageType

const [site, query] = process.argv.slice(2);
const folder = join(site, "assets", "javascripts", "workers");
const script = readdirSync(folder).find((name) => /^search\.[0-9a-f]+\.min\.js$/.test(name));
if (!script) throw new Error(`no search worker in ${folder}`);

let onMessage;
const answers = [];
const worker = { console, addEventListener: (type, listener) => { onMessage = listener; }, postMessage: (m) => answers.push(m) };
worker.self = worker;
vm.createContext(worker);
vm.runInContext(readFileSync(join(folder, script), "utf8"), worker);

const index = JSON.parse(readFileSync(join(site, "search", "search_index.json"), "utf8"));
await onMessage({ data: { type: SETUP, data: { ...index, options: { suggest: false } } } });
await onMessage({ data: { type: QUERY, data: query } });
const groups = answers.at(-1).data.items;
process.stdout.write(JSON.stringify(groups.map((group) => group.map(({ location, score }) => ({ location, score })))));
