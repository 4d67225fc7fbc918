#!/usr/bin/python3
"""Writes a tiny random-weight llama-architecture GGUF model for bench/real_engine.sh.

The model is useless as a language model; it exists so llama-server runs a real inference loop
(tokenizer, chat template, prompt cache, continuous batching, SSE streaming) at a speed two CPU
cores can serve. Two properties matter to the checks and are built into the weights:

* Output lengths are exact. The tokens that could end a request early (end-of-generation and
  other control tokens) or that the server would hold back while streaming (a token whose bytes
  are not valid UTF-8 on their own) can never be sampled: their logit is pinned far below every
  other token's, whatever the input.
* The vocabulary is the client's. With --vocab-json (default in real_engine.sh) the vocabulary is
  inferperf's builtin tokenizer.json, so server and client count prompt tokens identically and the
  prompt-length offset between them is only the chat template. --vocab-gguf takes it from one of
  llama.cpp's models/ggml-vocab-*.gguf files instead (then the counts differ per prompt).

How the pinning works: every token embedding has dimension 0 fixed at EMBD_ANCHOR, and the
attention-output and FFN-down projections write nothing into dimension 0, so the residual stream
reaching the final RMSNorm always has x[0] = EMBD_ANCHOR > 0 and the normalised h[0] is positive.
The output-projection row of a banned token is (-BAN_WEIGHT, 0, 0, ...): its logit is
-BAN_WEIGHT * h[0], hundreds below the allowed tokens, whose rows have 0 in column 0.

Usage: make_model.py --out model.gguf (--vocab-json tokenizer.json | --vocab-gguf vocab.gguf)
Needs numpy and llama.cpp's gguf-py on PYTHONPATH.
"""
import argparse
import json
import sys

import numpy as np
import gguf

N_LAYER = 2
N_EMBD = 64
N_HEAD = 4
N_FF = 128
N_CTX = 4096
EMBD_ANCHOR = 1.0
EMBD_NOISE = 0.5
BAN_WEIGHT = 1000.0
OUT_NOISE = 0.3
SEED = 1234

# Token types as GGUF stores them (llama.cpp's llama_token_type).
TT_NORMAL, TT_CONTROL, TT_UNUSED = 1, 3, 5


def gpt2_byte_decoder():
    """Inverse of the GPT-2 byte-level mapping that both tokenizer.json and GGUF 'gpt2' use."""
    printable = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + \
        list(range(ord("®"), ord("ÿ") + 1))
    byte_values = printable[:]
    code_points = printable[:]
    extra = 0
    for b in range(256):
        if b not in printable:
            byte_values.append(b)
            code_points.append(256 + extra)
            extra += 1
    return {chr(c): b for b, c in zip(byte_values, code_points)}


def vocab_from_tokenizer_json(path):
    """Tokens, types, merges and special ids from a Hugging Face byte-level BPE tokenizer.json."""
    with open(path, encoding="utf-8") as f:
        tok = json.load(f)
    model = tok["model"]
    if model.get("type") != "BPE":
        sys.exit(f"{path}: only byte-level BPE tokenizers are supported")
    specials = {a["id"]: a["content"] for a in tok.get("added_tokens", [])}
    n_vocab = 1 + max(max(model["vocab"].values()), max(specials, default=0))
    tokens = [f"[PAD{i}]" for i in range(n_vocab)]
    types = [TT_UNUSED] * n_vocab
    for text, i in model["vocab"].items():
        tokens[i] = text
        types[i] = TT_NORMAL
    for i, text in specials.items():
        tokens[i] = text
        types[i] = TT_CONTROL
    merges = [m if isinstance(m, str) else " ".join(m) for m in model["merges"]]
    # The builtin tokenizer is o200k (GPT-4o); llama.cpp names that pre-tokenizer "gpt-4o".
    eos = next((i for i, t in specials.items() if t == "<|endoftext|>"), None)
    return dict(tokens=tokens, types=types, merges=merges, pre="gpt-4o", bos=eos, eos=eos,
                add_bos=False, sep_special=next((i for i, t in specials.items()
                                                 if t == "<|endofprompt|>"), None))


def vocab_from_gguf(path):
    """Tokens, types, merges and special ids from a llama.cpp ggml-vocab-*.gguf file."""
    reader = gguf.GGUFReader(path)
    fields = reader.fields

    def scalar(name, default=None):
        f = fields.get(name)
        return f.contents() if f is not None else default

    if scalar("tokenizer.ggml.model") != "gpt2":
        sys.exit(f"{path}: only byte-level BPE ('gpt2') vocabularies are supported")
    return dict(tokens=scalar("tokenizer.ggml.tokens"),
                types=[int(t) for t in scalar("tokenizer.ggml.token_type")],
                merges=scalar("tokenizer.ggml.merges"), pre=scalar("tokenizer.ggml.pre"),
                bos=scalar("tokenizer.ggml.bos_token_id"), eos=scalar("tokenizer.ggml.eos_token_id"),
                add_bos=True, sep_special=None)


def banned_token_ids(tokens, types):
    """Ids the model must never emit: non-normal types, and tokens that are not whole UTF-8."""
    decoder = gpt2_byte_decoder()
    banned = []
    for i, (text, ttype) in enumerate(zip(tokens, types)):
        if ttype != TT_NORMAL:
            banned.append(i)
            continue
        try:
            raw = bytes(decoder[c] for c in text)
            raw.decode("utf-8")
        except (KeyError, UnicodeDecodeError):
            banned.append(i)
            continue
        if not raw:
            banned.append(i)
    return np.array(banned, dtype=np.int64)


def chat_template(vocab):
    """A plain role/content template. Special tokens fence every piece of text, so each message
    tokenizes on its own and the template adds the same number of tokens to every prompt."""
    sep = vocab["tokens"][vocab["sep_special"]] if vocab["sep_special"] is not None else "\n\n"
    return ("{% for message in messages %}" + sep + "{{ message['role'] }}" + sep +
            "{{ message['content'] }}{% endfor %}"
            "{% if add_generation_prompt %}" + sep + "assistant" + sep + "{% endif %}")


def write_model(out, vocab):
    rng = np.random.default_rng(SEED)
    n_vocab = len(vocab["tokens"])
    head_dim = N_EMBD // N_HEAD

    w = gguf.GGUFWriter(out, "llama")
    w.add_name("inferperf-real-engine-tiny")
    w.add_context_length(N_CTX)
    w.add_embedding_length(N_EMBD)
    w.add_block_count(N_LAYER)
    w.add_feed_forward_length(N_FF)
    w.add_head_count(N_HEAD)
    w.add_head_count_kv(N_HEAD)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_rope_dimension_count(head_dim)
    w.add_rope_freq_base(10000.0)
    w.add_vocab_size(n_vocab)
    w.add_file_type(gguf.LlamaFileType.ALL_F32)

    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre(vocab["pre"])
    w.add_token_list(vocab["tokens"])
    w.add_token_types(vocab["types"])
    w.add_token_merges(vocab["merges"])
    if vocab["bos"] is not None:
        w.add_bos_token_id(int(vocab["bos"]))
    if vocab["eos"] is not None:
        w.add_eos_token_id(int(vocab["eos"]))
    w.add_add_bos_token(bool(vocab["add_bos"]))
    w.add_chat_template(chat_template(vocab))

    def rand(*shape, scale):
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    embd = rand(n_vocab, N_EMBD, scale=EMBD_NOISE)
    embd[:, 0] = EMBD_ANCHOR
    w.add_tensor("token_embd.weight", embd)
    for layer in range(N_LAYER):
        p = f"blk.{layer}."
        w.add_tensor(p + "attn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
        for name in ("attn_q", "attn_k", "attn_v"):
            w.add_tensor(p + name + ".weight", rand(N_EMBD, N_EMBD, scale=N_EMBD ** -0.5))
        attn_out = rand(N_EMBD, N_EMBD, scale=N_EMBD ** -0.5)
        attn_out[0, :] = 0.0  # keep residual dimension 0 at the anchor value
        w.add_tensor(p + "attn_output.weight", attn_out)
        w.add_tensor(p + "ffn_norm.weight", np.ones(N_EMBD, dtype=np.float32))
        w.add_tensor(p + "ffn_gate.weight", rand(N_FF, N_EMBD, scale=N_EMBD ** -0.5))
        w.add_tensor(p + "ffn_up.weight", rand(N_FF, N_EMBD, scale=N_EMBD ** -0.5))
        ffn_down = rand(N_EMBD, N_FF, scale=N_FF ** -0.5)
        ffn_down[0, :] = 0.0
        w.add_tensor(p + "ffn_down.weight", ffn_down)
    w.add_tensor("output_norm.weight", np.ones(N_EMBD, dtype=np.float32))

    output = rand(n_vocab, N_EMBD, scale=OUT_NOISE)
    output[:, 0] = 0.0
    banned = banned_token_ids(vocab["tokens"], vocab["types"])
    output[banned, :] = 0.0
    output[banned, 0] = -BAN_WEIGHT
    w.add_tensor("output.weight", output)

    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return n_vocab, len(banned)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--vocab-json", help="Hugging Face tokenizer.json (byte-level BPE)")
    src.add_argument("--vocab-gguf", help="llama.cpp models/ggml-vocab-*.gguf (gpt2 model)")
    args = ap.parse_args()
    vocab = vocab_from_tokenizer_json(args.vocab_json) if args.vocab_json else \
        vocab_from_gguf(args.vocab_gguf)
    n_vocab, n_banned = write_model(args.out, vocab)
    print(f"wrote {args.out}: vocab {n_vocab} ({vocab['pre']}), {n_banned} tokens never emitted, "
          f"{N_LAYER} layers, n_embd {N_EMBD}, {N_HEAD} heads, ff {N_FF}, context {N_CTX}")


if __name__ == "__main__":
    main()
