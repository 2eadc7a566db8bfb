"""Docs generated from the bundled sets (``python -m boneyard.pipeline.text``): each game's spec
says which files it writes about its bundled set (``GameSpec.docs``; Day of the Dead: the
character list, docs/characters.md), so no list in docs/ is ever hand-written.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from boneyard.engine.games import specs

from boneyard.files import write_atomic


def generated_docs() -> dict[str, str]:
    """docs/ file name -> text, for every registered game that writes docs about its set."""
    from boneyard.pipeline.load import load_set

    out: dict[str, str] = {}
    for spec in specs():
        if spec.docs is not None and spec.bundled_set:
            out.update(spec.docs(load_set(spec.bundled_set)))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Write every generated doc into docs/ (or the folder given)."""
    from boneyard.paths import DOCS

    args = list(sys.argv[1:] if argv is None else argv)
    folder = Path(args[0]) if args else DOCS
    for name, text in generated_docs().items():
        write_atomic(folder / name, text)
        print(f"wrote {folder / name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
