"""Command line: ``python -m engine train ...`` trains on a corpus and saves a checkpoint;
``python -m engine talk --checkpoint ... --prompt ...`` continues a prompt with a trained model.
"""
import argparse
import sys
from pathlib import Path

from .checkpoint import load_checkpoint
from .config import GPTConfig, parse_overrides
from .data import load_corpus
from .errors import LayerwiseError
from .generate import generate_text
from .train import TrainSettings, train


def build_parser():
    parser = argparse.ArgumentParser(prog="python -m engine", description="Train and talk to Layerwise's tiny GPT.")
    commands = parser.add_subparsers(dest="command", required=True)

    fit = commands.add_parser("train", help="train a model on a character corpus and save a checkpoint")
    fit.add_argument("--corpus", help="UTF-8 text file (default: the shipped public-domain corpus, Moby-Dick's first chapters)")
    fit.add_argument("--out", default="checkpoints/model.npz", help="checkpoint path (default: %(default)s)")
    fit.add_argument("--steps", type=int, default=TrainSettings.steps)
    fit.add_argument("--batch-size", type=int, default=TrainSettings.batch_size)
    fit.add_argument("--lr", type=float, default=TrainSettings.lr)
    fit.add_argument("--warmup-steps", type=int, default=TrainSettings.warmup_steps)
    fit.add_argument("--checkpoint-every", type=int, default=TrainSettings.checkpoint_every)
    fit.add_argument("--eval-every", type=int, default=TrainSettings.eval_every)
    fit.add_argument("--seed", type=int, default=TrainSettings.seed)
    fit.add_argument("--resume", metavar="CHECKPOINT",
                     help="go on training this checkpoint's model (its sizes and vocabulary), e.g. your-gpt.npz")
    fit.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                     help="override a GPTConfig field, e.g. --set emb_dim=64 --set norm=rmsnorm (repeatable)")

    talk = commands.add_parser("talk", help="continue a prompt with a trained checkpoint")
    talk.add_argument("--checkpoint", required=True)
    talk.add_argument("--prompt", required=True)
    talk.add_argument("--tokens", type=int, default=200, help="characters to generate (default: %(default)s)")
    talk.add_argument("--temperature", type=float, default=0.8)
    talk.add_argument("--top-k", type=int, default=None)
    talk.add_argument("--top-p", type=float, default=None,
                      help="keep only the most likely characters that together reach this probability (0 < p <= 1)")
    talk.add_argument("--seed", type=int, default=0)
    talk.add_argument("--kv-cache", action="store_true", help="keep keys and values between steps (same text, faster)")
    return parser


def run_train(args):
    params = vocab = None
    if args.resume:
        if args.set:
            raise LayerwiseError("train: --set cannot change a resumed model's sizes; they come from --resume")
        params, config, vocab, _ = load_checkpoint(args.resume)
    else:
        config = GPTConfig.from_dict(parse_overrides(args.set))
    if Path(args.out).is_dir():
        raise LayerwiseError(f"--out {args.out} is a folder; give the checkpoint's file name, such as "
                             f"{Path(args.out) / 'model.npz'}")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    settings = TrainSettings(steps=args.steps, batch_size=args.batch_size, lr=args.lr, warmup_steps=args.warmup_steps,
                             eval_every=args.eval_every, checkpoint_path=args.out,
                             checkpoint_every=args.checkpoint_every, seed=args.seed)
    # writes the checkpoint, the last one at the end
    result = train(config, load_corpus(args.corpus), settings, params=params, vocab=vocab)
    print(f"saved {args.out} (final loss {result.history['train_loss'][-1]:.4f})")


def run_talk(args):
    params, config, vocab, _ = load_checkpoint(args.checkpoint)
    print(generate_text(params, config, vocab, args.prompt, args.tokens, seed=args.seed,
                        temperature=args.temperature, top_k=args.top_k, kv_cache=args.kv_cache,
                        top_p=args.top_p))


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        (run_train if args.command == "train" else run_talk)(args)
    except LayerwiseError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except OSError as error:  # a folder that cannot be made, a file that cannot be written
        print(f"error: {error.filename or ''}: {error.strerror or error}", file=sys.stderr)
        return 2
    except MemoryError as error:  # NumPy names the array it could not allocate
        print(f"error: not enough memory for this model ({error or 'allocation failed'}); choose smaller sizes "
              "with --set", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
