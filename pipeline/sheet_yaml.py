"""Rewrite a card file with new card contents, keeping everything a designer wrote around them.

``boneyard import`` changes cards, not files: each card of a list is one region of lines (its
``- id:`` line to the next card's), and only the regions of cards whose content changed are
written again, by ruamel.yaml's round-trip dumper (their comments, key order and flow style
kept). Everything else, the ``# yaml-language-server: $schema=...`` line and the section
comments between cards included, stays byte for byte, so a sheet that changes nothing changes
no byte. The file's line ends are its own: the lines written again (and new cards) end as most
of the file's lines do (CRLF in a file saved on Windows), and a byte-order mark stays. Card files are read by PyYAML (YAML 1.1: ``yes`` is true) and dumped by ruamel (1.2),
so a string PyYAML would read as something else is written quoted.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

import yaml
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import DoubleQuotedScalarString

_RESOLVER = yaml.resolver.Resolver()


def _yaml() -> YAML:
    y = YAML()  # round trip
    y.preserve_quotes = True
    y.width = 4096  # never fold a long flavor line
    y.indent(mapping=2, sequence=4, offset=2)  # the bundled files' style: "effect:\n  - power: 5"
    return y


def plain(value: Any) -> Any:
    """ruamel's round-trip values as plain Python (for comparing with what a sheet says)."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    return value


def _scalar(value: Any) -> Any:
    if isinstance(value, str):
        tag = _RESOLVER.resolve(yaml.ScalarNode, value, (True, False))
        if tag != "tag:yaml.org,2002:str" or value != value.strip() or not value:
            return DoubleQuotedScalarString(value)  # "yes", "12", "null", " padded"
    return value


def _flow(value: Any) -> Any:
    if isinstance(value, Mapping):
        out = CommentedMap((k, _flow(v)) for k, v in value.items())
        out.fa.set_flow_style()
        return out
    if isinstance(value, (list, tuple)):
        seq = CommentedSeq(_flow(v) for v in value)
        seq.fa.set_flow_style()
        return seq
    return _scalar(value)


def styled(value: Any) -> Any:
    """A card's value in the card files' style: a list of mappings (effect steps) in block
    style, one step an item, each step's arguments and conditions in flow style
    (``when: {turn: {ge: 5}}``); any other list or mapping in flow style (``[1, 2]``)."""
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, Mapping) for v in value):
        seq = CommentedSeq()
        for step in value:
            seq.append(CommentedMap((k, _flow(v)) for k, v in step.items()))
        return seq
    return _flow(value)


def new_card(card: Mapping[str, Any]) -> CommentedMap:
    """A card that was not in the file, as a block mapping in the column order."""
    return CommentedMap((k, styled(v)) for k, v in card.items())


def _dump_card(card: CommentedMap, newline: str = "\n") -> list[str]:
    """One card as list-item lines: ``- id: x`` then the rest indented two spaces, each line
    ending in ``newline`` (the file's own)."""
    buf = io.StringIO()
    _yaml().dump(card, buf)
    out = []
    for i, line in enumerate(buf.getvalue().splitlines()):
        if i == 0:
            line = "- " + line
        elif line.strip() and not line.startswith("#"):
            line = "  " + line
        out.append(line + newline)
    return out


def newline_of(lines: Sequence[str]) -> str:
    """The line end most of ``lines`` have: ``\r\n`` (a file saved on Windows) or ``\n``."""
    crlf = sum(line.endswith("\r\n") for line in lines)
    return "\r\n" if crlf * 2 > sum(line.endswith("\n") for line in lines) else "\n"


def _is_trailing(line: str) -> bool:
    text = line.strip()
    return not text or text.startswith("#")


def _split_tail(lines: list[str]) -> tuple[list[str], list[str]]:
    """(the card's own lines, the blank and comment lines after it: the next section's header)."""
    end = len(lines)
    while end > 1 and _is_trailing(lines[end - 1]):
        end -= 1
    return lines[:end], lines[end:]


def _apply(card: CommentedMap, new: Mapping[str, Any]) -> None:
    """Make ``card`` say ``new``: changed values replaced where they stand, removed keys
    deleted, new keys put where the column order says."""
    for key in [k for k in card if k not in new]:
        del card[key]
    order = list(new)
    for key, value in new.items():
        if key in card:
            if plain(card[key]) != value:
                card[key] = styled(value)
            continue
        before = [k for k in order[: order.index(key)] if k in card]
        pos = list(card).index(before[-1]) + 1 if before else 0
        card.insert(pos, key, styled(value))


def rewrite(text: str, cards: Sequence[tuple[int | None, Mapping[str, Any]]],
            old: Sequence[Any]) -> str:
    """``text`` (a card list file) holding ``cards``: (index of the card in the file or None
    for a new one, its new content), in the file's order with new cards last. ``old`` is the
    file's cards as read by the validator; a card equal to its old self keeps its lines."""
    bom = "\ufeff" if text.startswith("\ufeff") else ""  # kept, even if the first card changes
    text = text[len(bom):]
    doc = _yaml().load(text)
    lines = text.splitlines(keepends=True)
    newline = newline_of(lines)
    last = lines[-1] if lines and not lines[-1].endswith("\n") else None
    if last is not None:  # ended for what may follow it; taken off again below if nothing does
        lines[-1] += newline
    seq = doc if isinstance(doc, CommentedSeq) else CommentedSeq()
    starts = [seq.lc.item(i)[0] for i in range(len(seq))]
    # an empty list ("[]" or nothing): keep its comments, drop the "[]"
    head = lines[: starts[0]] if starts else [line for line in lines if _is_trailing(line)]
    regions = [lines[s: (starts[i + 1] if i + 1 < len(starts) else len(lines))]
               for i, s in enumerate(starts)]
    wanted = {i: new for i, new in cards if i is not None}
    out = list(head)
    for i, region in enumerate(regions):
        body, tail = _split_tail(region)
        if i not in wanted:  # deleted: the comments after it belong to the next card
            out += tail
        elif i < len(old) and old[i] == wanted[i]:
            out += region
        else:
            card = seq[i] if isinstance(seq[i], CommentedMap) else CommentedMap()
            _apply(card, wanted[i])
            dumped, _ = _split_tail(_dump_card(card, newline))
            out += dumped + tail
    for index, new in cards:
        if index is None:
            out += _dump_card(new_card(new), newline)
    if last is not None and out and out[-1] is lines[-1]:  # the file's own last line, unended
        out[-1] = last
    return bom + "".join(out)
