#!/usr/bin/python3
"""Writes the small mooncake trace bench/real_engine.sh replays (stdlib only).

Rows look like {"input_length": N, "output_length": M, "hash_ids": [...]} (block size 512). Every
input is longer than one block so the shared first block is always a full 512 tokens (a hash id
must name one block size for the whole run); rows of one group share it, and half of the longer
rows share a second block too, so the server's prefix cache sees the reuse a real trace has.
Inputs stay between 600 and 1500 tokens and outputs between 16 and 64 so the whole sweep fits in
a few minutes on a one-thread llama-server.

Usage: make_trace.py OUT [ROWS] [SEED]
"""
import json
import random
import sys

BLOCK = 512
GROUPS = 8


def main():
    out = sys.argv[1]
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 64
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 7)
    next_id = 1000
    with open(out, "w", encoding="utf-8") as f:
        for i in range(rows):
            group = i % GROUPS
            length = rng.randint(600, 1500)
            blocks = -(-length // BLOCK)
            ids = [group]
            if blocks == 3 and i % 2 == 0:
                ids.append(100 + group)  # a second shared block: a longer common prefix
            while len(ids) < blocks:
                ids.append(next_id)
                next_id += 1
            row = {"input_length": length, "output_length": rng.randint(16, 64), "hash_ids": ids}
            f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
