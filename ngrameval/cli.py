"""The ``ngrameval`` command: score a system output file against reference files.

    ngrameval example                                  # BLEU and NIST on the bundled example
    ngrameval bleu -s system.txt -r ref.txt [-r ref2.txt] [--variant nltk] [--json]
    ngrameval nist -s system.txt -r ref.txt [--variant mteval]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import List, Optional

from .bleu import VARIANTS as BLEU_VARIANTS, bleu
from .nist import VARIANTS as NIST_VARIANTS, nist
from .tokenizers import TOKENIZER_NAMES

EXAMPLES = Path(__file__).parent / "examples"


def read_lines(path: Path) -> List[str]:
    """The lines of a UTF-8 file, without line ends (a final newline does not add a line)."""
    return path.read_text(encoding="utf-8").splitlines()


def read_corpus(system: Path, reference_files: List[Path]):
    """Predictions and, per prediction, one reference from each reference file."""
    predictions = read_lines(system)
    streams = [read_lines(path) for path in reference_files]
    for path, stream in zip(reference_files, streams):
        if len(stream) != len(predictions):
            raise ValueError(f"{path} has {len(stream)} lines but {system} has {len(predictions)}")
    return predictions, [list(refs) for refs in zip(*streams)]


def _print(result, as_json: bool, name: str) -> None:
    data = result.as_dict()
    if as_json:
        print(json.dumps(data, indent=1, ensure_ascii=False))
        return
    print(f"{name} = {data[name.lower()]:.4f}  ({data['signature']})")
    for key, value in data.items():
        if key not in (name.lower(), "signature"):
            print(f"  {key}: {value}")


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="ngrameval", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("example", help="score the bundled example (Papineni et al. 2002) with BLEU and NIST")
    for name, variants in (("bleu", BLEU_VARIANTS), ("nist", NIST_VARIANTS)):
        command = commands.add_parser(name, help=f"corpus {name.upper()} of a system output")
        command.add_argument("-s", "--system", type=Path, required=True, help="system output, one segment a line")
        command.add_argument("-r", "--reference", type=Path, action="append", required=True,
                             help="reference file, one segment a line (repeat for several references)")
        command.add_argument("--variant", choices=variants, default=variants[0])
        command.add_argument("--tokenize", choices=TOKENIZER_NAMES, default="default")
        command.add_argument("--lowercase", action="store_true")
        command.add_argument("--json", action="store_true", help="print the whole result as JSON")
        if name == "bleu":
            command.add_argument("--max-order", type=int, default=None)
            command.add_argument("--smooth", default="default")
        else:
            command.add_argument("-n", type=int, default=5)
    args = parser.parse_args(argv)
    try:
        if args.command == "example":
            predictions, references = read_corpus(EXAMPLES / "hypotheses.txt",
                                                  sorted(EXAMPLES.glob("references.*.txt")))
            print("Papineni et al. (2002), example 1: two candidates, three references each\n")
            for variant in ("sacrebleu", "nltk", "mteval", "nmt"):
                result = bleu(predictions, references, variant=variant, sentence_level=True)
                print(f"BLEU ({variant:9s}) corpus {result.bleu:.4f}  per sentence "
                      f"{', '.join(f'{s:.4f}' for s in result.sentence_scores)}")
            for variant in ("nltk", "mteval"):
                result = nist(predictions, references, variant=variant, sentence_level=True)
                print(f"NIST ({variant:9s}) corpus {result.nist:.4f}  per sentence "
                      f"{', '.join(f'{s:.4f}' for s in result.sentence_scores)}")
            return 0
        predictions, references = read_corpus(args.system, args.reference)
        if args.command == "bleu":
            smooth = args.smooth
            if args.variant == "nmt" and smooth != "default":
                smooth = smooth.lower() in ("true", "1", "yes", "add-one")
            result = bleu(predictions, references, variant=args.variant, tokenize=args.tokenize,
                          lowercase=args.lowercase, max_order=args.max_order, smooth=smooth)
            _print(result, args.json, "BLEU")
        else:
            result = nist(predictions, references, variant=args.variant, tokenize=args.tokenize,
                          lowercase=args.lowercase, n=args.n)
            _print(result, args.json, "NIST")
    except (ValueError, OSError) as error:
        print(f"ngrameval: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
