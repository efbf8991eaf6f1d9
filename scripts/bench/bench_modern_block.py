"""Benchmark training speed of the modern block's variants (engine.modern_block.SWITCHES): the tokens (and
characters) per second the page's comparison table leaves out, because they depend on the machine.

    .venv/bin/python scripts/bench/bench_modern_block.py [--repeats 5] [--steps 40] [--batch-size 8]

Each variant is the table's tiny model with its switches; whole training steps, min / median / max over repeats.
"""
import argparse
import os

for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(variable, "1")  # tiny matrices: BLAS threads cost more than they save

from bench_engine import spread, time_training  # noqa: E402  (after the thread settings on purpose)

from engine import data, modern_block, tokenizer  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--batch-size", type=int, default=8)
    args = parser.parse_args()
    text = data.load_corpus()
    for name, switches in modern_block.SWITCHES.items():
        config = modern_block.variant(switches)
        ids = tokenizer.encode_text(text, tokenizer.vocabulary_for(config, text))
        rates = time_training(config, ids, args.batch_size, args.steps, args.repeats)
        characters = [rate * len(text) / len(ids) for rate in rates]  # BPE tokens spell several characters
        print(f"{name:<26} {spread(rates, 'tokens/s')}   {spread(characters, 'characters/s')}")


if __name__ == "__main__":
    main()
