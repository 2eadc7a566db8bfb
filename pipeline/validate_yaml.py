"""Safe, position-aware YAML reading for untrusted card files.

Card files come from designers and from strangers' pull requests, so reading one must never run
code, never blow up memory and never end in a traceback. PyYAML's safe composer builds the node
tree; we convert it to plain Python ourselves so that we can

- remember the line:column of every value and every key (schema and semantic errors point there),
- report duplicate keys (PyYAML silently keeps the last one),
- refuse files over a size limit and alias bombs ("billion laughs") before they expand,
- refuse tags other than the plain JSON-like ones (no ``!!python/...``, no ``!!binary``).

Every problem becomes a :class:`boneyard.errors.Problem`; the caller decides when to raise.
"""

from __future__ import annotations

import math
import os
import re
import stat
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from boneyard.errors import Problem

MAX_FILE_BYTES = 1024 * 1024
"""A card file larger than this is refused unread: the bundled sets are a few KiB."""

MAX_NODES = 100_000
"""Values a document may expand to, aliases counted each time they are used."""

JsonPath = tuple[str | int, ...]

_PLAIN_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:timestamp",  # read back as its text: a date is no card value
}


def display_path(path: str | os.PathLike[str]) -> str:
    """The path as a designer would type it: relative to the working folder when inside it."""
    p = Path(path)
    try:
        rel = os.path.relpath(p)
    except ValueError:  # another drive on Windows
        return str(p)
    return str(p) if rel.startswith("..") else rel


@dataclass
class YamlDoc:
    """A parsed card file: the plain data plus where each piece of it was written."""

    file: str  # display path, as used in messages
    data: Any = None
    values: dict[JsonPath, tuple[int, int]] = field(default_factory=dict)
    keys: dict[JsonPath, tuple[int, int]] = field(default_factory=dict)
    # mappings the reader left incomplete (a refused merge key): what the schema then misses
    # there is that one problem again, not a second one
    incomplete: set[tuple[int, int]] = field(default_factory=set)

    def where(self, path: JsonPath, *, key: bool = False) -> tuple[int, int]:
        """Line and column (1-based) of the value at ``path``, or of its key with ``key=True``.

        Falls back to the nearest enclosing value, so a problem always has a position.
        """
        if key and path in self.keys:
            return self.keys[path]
        p = tuple(path)
        while p:
            if p in self.values:
                return self.values[p]
            p = p[:-1]
        return self.values.get((), (1, 1))

    def problem(
        self,
        path: JsonPath,
        message: str,
        *,
        card: str | None = None,
        hint: str | None = None,
        key: bool = False,
    ) -> Problem:
        line, col = self.where(path, key=key)
        return Problem(self.file, line, col, message, card=card, hint=hint)


class _Loader(yaml.SafeLoader):
    """The safe loader; we only use its scanner, parser, composer and scalar resolution."""


# libyaml composes about ten times faster; a file it rejects is parsed again by the pure-Python
# loader so that messages are the same on every machine, with or without libyaml.
_FastLoader: type | None = getattr(yaml, "CSafeLoader", None)


def _compose_fast(text: str) -> tuple[Any, yaml.Node | None] | None:
    if _FastLoader is None:
        return None
    loader = _FastLoader(text)
    try:
        return loader, loader.get_single_node()
    except (yaml.YAMLError, RecursionError):
        loader.dispose()
        return None


def _tag(node: yaml.Node) -> str:
    return node.tag.replace("tag:yaml.org,2002:", "!!")


_PLAIN_VALUES = "text, numbers, true/false, lists and mappings"
_PLAIN = f"hold plain values: {_PLAIN_VALUES}"


def _mark(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")
"""Bidirectional embeddings, overrides and isolates: invisible, they make a name, a gate's why or
a card's text read differently in the terminal, the report and on the printed card than in the
file (the "Trojan Source" trick). Right-to-left letters need none of them."""


class _Converter:
    """Turns a composed node graph into plain data, with marks, limits and duplicate checks."""

    def __init__(self, doc: YamlDoc, loader: Any, kind: str | None = None) -> None:
        self.doc = doc
        self.loader = loader
        # the files a refusal names: "card files", else this one ("template.yaml")
        self.kind = kind or Path(doc.file).name
        self.plain_hint = f"{kind} {_PLAIN}" if kind else f"write plain values: {_PLAIN_VALUES}"
        self.problems: list[Problem] = []
        self.count = 0
        self.active: set[int] = set()  # nodes on the current path: an alias back to one loops

    def fail(self, node: yaml.Node, message: str, hint: str | None = None) -> None:
        line, col = _mark(node)
        self.problems.append(Problem(self.doc.file, line, col, message, hint=hint))

    def convert(self, node: yaml.Node, path: JsonPath) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            raise _TooBig(node)
        self.doc.values.setdefault(path, _mark(node))
        if isinstance(node, yaml.ScalarNode):
            if node.tag not in _PLAIN_TAGS:
                self.fail(node, f"YAML tag '{_tag(node)}' is not allowed in {self.kind}",
                          self.plain_hint)
                return None
            if node.tag == "tag:yaml.org,2002:timestamp":
                return node.value
            try:
                value = self.loader.construct_object(node, deep=True)
            except Exception:  # e.g. `!!int abc`: PyYAML raises ValueError, KeyError, ...
                self.fail(node, f"{node.value!r} is not a valid {_tag(node)} value",
                          "remove the tag")
                return None
            if isinstance(value, str):
                hidden = _BIDI.search(value)
                if hidden:
                    ch = hidden.group()
                    self.fail(node, f"the text holds U+{ord(ch):04X} {unicodedata.name(ch)} at "
                                    f"character {hidden.start() + 1}, an invisible control that "
                                    "reorders how the text around it is shown and printed",
                              "delete it; right-to-left letters need no control characters")
                    return None
                problem = _text_problem(value, path[-1] if path else None)
                if problem:
                    self.fail(node, *problem)
                    return None
            if node.tag == "tag:yaml.org,2002:int" and not _DECIMAL.fullmatch(node.value):
                self.fail(node, *_int_problem(node.value, value))
                return None
            if isinstance(value, float) and not math.isfinite(value):
                self.fail(node, f"{node.value!r} is not a number a card set can use",
                          "write a finite number, within the range the field allows")
                return None
            return value
        if id(node) in self.active:
            raise _Recursive(node)
        self.active.add(id(node))
        try:
            plain = "tag:yaml.org,2002:seq" if isinstance(node, yaml.SequenceNode) \
                else "tag:yaml.org,2002:map"
            if node.tag != plain:
                # blanked like a refused scalar: what a tag builds from its list or mapping
                # (a call's arguments) is no card data, and read as such it only echoes
                self.fail(node, f"YAML tag '{_tag(node)}' is not allowed in {self.kind}",
                          self.plain_hint)
                return None
            if isinstance(node, yaml.SequenceNode):
                return [self.convert(item, (*path, i)) for i, item in enumerate(node.value)]
            out: dict[Any, Any] = {}
            first: dict[Any, tuple[int, int]] = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    self.fail(key_node, "a key must be a plain word, not a list or mapping")
                    continue
                if key_node.tag == "tag:yaml.org,2002:merge":
                    self.fail(key_node, f"merge keys (<<) are not supported in {self.kind}",
                              "write the keys out")
                    self.doc.incomplete.add(_mark(node))
                    continue
                key = self.convert(key_node, (*path, "<key>"))
                if isinstance(key, (int, float, bool)) or key is None:
                    key = key_node.value  # `1: x` or `yes: x` as a key means the word
                if key in first:
                    line, col = first[key]
                    self.fail(key_node, f"duplicate key '{key}' (first written at line {line})",
                              "remove one of them; YAML would silently keep only the last")
                    continue
                first[key] = _mark(key_node)
                self.doc.keys[(*path, key)] = _mark(key_node)
                out[key] = self.convert(value_node, (*path, key))
            self.doc.values.pop((*path, "<key>"), None)
            return out
        finally:
            self.active.discard(id(node))


_DECIMAL = re.compile(r"[-+]?(0|[1-9][0-9]*)")
"""A whole number in plain digits; YAML 1.1 also reads 010 (octal), 0x1, 0b1, 1_000 and 1:30."""


def _int_problem(text: str, value: int) -> tuple[str, str]:
    """What a whole number written other than in plain digits is read as (``power: 010`` is 8,
    while a sheet's ``010`` is 10: the two readings of one set must not disagree)."""
    digits = text.lstrip("+")
    if re.fullmatch(r"-?[0-9_]+", digits):
        meant = int(digits.replace("_", ""))
        if meant != value:
            return (f"{text!r} is read by YAML as an octal number, {value}, not {meant}",
                    f"write {meant} without the leading zero, or {value} if that is meant")
        return f"{text!r} is a number with a leading zero or underscores", f"write {meant}"
    hexa = re.fullmatch(r"0[xX]([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})", text)
    if hexa:  # a colour typed as in CSS or a design tool, without its #
        return (f"{text!r} is read by YAML as a hexadecimal number, {value}",
                f"a colour is written \"#{hexa[1].lower()}\", in quotes; or write {value} in "
                "plain digits if a number is meant")
    how = ("hexadecimal" if "x" in text.lower() else "binary" if "b" in text.lower()
           else "sexagesimal (base 60)" if ":" in text else "octal")
    return (f"{text!r} is read by YAML as a {how} number, {value}",
            f"write {value} in plain digits, or quote it if it is text")


_NAME_KEYS = frozenset({"name", "title"})
"""Keys whose text is a one-line name printed on a card or a sheet."""


def _text_problem(value: str, key: Any) -> tuple[str, str] | None:
    """(message, hint) for text that prints other than it reads in the file, or None.

    An invisible character (a zero-width space pasted with a name, a byte-order mark) prints as
    nothing or a box and makes two names that look the same differ; an accent written as a
    separate combining mark may print as a letter and a box; a name with spaces at its ends or
    a line break looks like another card's name. The soft hyphen is a typesetting hint and stays.
    """
    for i, ch in enumerate(value):
        cat = unicodedata.category(ch)
        if (cat == "Cf" and ch != "\u00ad") or (cat == "Cc" and ch not in "\t\n\r"):
            name = unicodedata.name(ch, "a control character")
            return (f"the text holds U+{ord(ch):04X} {name} at character {i + 1}, an invisible "
                    "character: it prints as nothing or a box, and makes two texts that look "
                    "the same differ", "delete it")
    if key != "art" and unicodedata.normalize("NFC", value) != value:
        at = next(i for i, ch in enumerate(value) if unicodedata.combining(ch))
        whole = unicodedata.normalize("NFC", value[max(0, at - 1):at + 1])
        return (f"the text writes a letter and a separate accent (U+{ord(value[at]):04X}) at "
                f"character {at + 1}: fonts may print it as a letter and a box",
                f"write it as one character: {whole!r}")
    if key in _NAME_KEYS:
        if "\n" in value or "\r" in value:
            return "a name is one line, this one has a line break", "join the lines"
        if value.strip() and value != value.strip():  # (only spaces: the schema says it)
            return (f"the name {value!r} begins or ends with a space: it looks like the name "
                    "without it, and prints off centre", "remove the space")
    return None


MAX_DEPTH = 100
"""Nesting levels past which a file is said to be nested too deeply (a card file needs a few):
the place reported is where the nesting first goes past it."""


def _too_deep(text: str) -> tuple[int, int]:
    """Line and column (1-based) where ``text`` first nests past ``MAX_DEPTH``: the composer
    that ran out of stack says nothing of where, but the scanner keeps no stack of its own."""
    opens = (yaml.BlockMappingStartToken, yaml.BlockSequenceStartToken,
             yaml.FlowMappingStartToken, yaml.FlowSequenceStartToken)
    closes = (yaml.BlockEndToken, yaml.FlowMappingEndToken, yaml.FlowSequenceEndToken)
    depth = 0
    try:
        for token in yaml.scan(text, Loader=_Loader):
            if isinstance(token, opens):
                depth += 1
                if depth > MAX_DEPTH:
                    return _mark(token)
            elif isinstance(token, closes):
                depth -= 1
    except (yaml.YAMLError, RecursionError):
        pass  # the scan stopped at a syntax error before the limit: no deeper place to name
    return 1, 1


_DEEP_HINT = f"a card file needs a few levels, not over {MAX_DEPTH}; is a bracket left open?"


def _syntax_hint(what: str) -> str:
    """The fix for a YAML syntax error, where PyYAML's words do not say it."""
    if "'\\t'" in what:
        return "YAML indents with spaces: replace the tab with spaces"
    if "found another document" in what:
        return "a card file is one YAML document: remove the '---' line"
    return "check the indentation and quoting around here"


_DASH = re.compile(r"^\s*-[A-Za-z_]")


def _dash_without_space(text: str, line: int) -> tuple[int, str] | None:
    """(line, text) of ``-id: vampire`` at or just above an error's line: YAML reads it as a
    key, not a list item, and PyYAML's "expected <block end>, but found '?'" does not say so."""
    lines = text.splitlines()
    for at in (line, line - 1):
        if 1 <= at <= len(lines) and _DASH.match(lines[at - 1]) and ":" in lines[at - 1]:
            return at, lines[at - 1]
    return None


_KEY = re.compile(r"^( *)(- +)?([A-Za-z_][\w-]*)\s*:(\s|$)")


def _misindented(text: str, line: int) -> tuple[str, str, int] | None:
    """(message, hint, the key's column) for a key line whose indentation lines up with no key of the entry it
    sits in (``   flavor:`` under keys at 2 spaces), where PyYAML says "expected <block end>,
    but found '<block mapping start>'"; None when the line is no key or lines up."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return None
    here = _KEY.match(lines[line - 1])
    if here is None or here[2]:
        return None
    indent = len(here[1])
    levels: dict[int, tuple[int, str]] = {}  # key indentation -> (line, key) nearest above
    for at in range(line - 1, 0, -1):
        m = _KEY.match(lines[at - 1])
        if m is None:
            continue
        level = len(m[1]) + len(m[2] or "")
        levels.setdefault(level, (at, m[3]))
        if not m[1] and m[2]:  # the top-level list item this line belongs to
            break
    if not levels or indent in levels:
        return None
    shown = ", and ".join(f"{lvl}, as '{key}:' at line {at}"
                          for lvl, (at, key) in sorted(levels.items()))
    below = [lvl for lvl in levels if lvl < indent]
    meant = max(below) if below else min(levels)
    return (f"YAML syntax error: '{here[3]}:' is indented {indent} space{'s' if indent != 1 else ''}, "
            f"which lines up with no key above it (those are at {shown})",
            f"indent it by {meant} spaces, like '{levels[meant][1]}:' at line {levels[meant][0]}",
            indent + 1)


def _runaway_quote(text: str, mark: Any) -> tuple[tuple[int, int], int] | None:
    """((line, column), closing line) of a quoted text that runs over several lines and ends
    on the line of a syntax error: a quote left open, closed by the next quote in the file
    (often cards further down), where PyYAML then reports the error."""
    found = None
    try:
        for token in yaml.scan(text, Loader=_Loader):
            if token.start_mark.index >= mark.index:
                break
            if isinstance(token, yaml.ScalarToken) and token.style in ("'", '"') \
                    and token.end_mark.line > token.start_mark.line:
                found = token
    except (yaml.YAMLError, RecursionError):
        pass  # the scan stops at the error itself: the quotes read before it are all there is
    if found is None:
        return None
    if found.end_mark.line != mark.line:
        return None  # closed before the error's line: a text that runs on, by design
    return _mark(found), found.end_mark.line + 1


class _TooBig(Exception):
    def __init__(self, node: yaml.Node) -> None:
        self.node = node


class _Recursive(Exception):
    def __init__(self, node: yaml.Node) -> None:
        self.node = node


def read_yaml(path: str | os.PathLike[str], *,
              kind: str | None = None) -> tuple[YamlDoc, list[Problem]]:
    """Read one card file; returns the document (data None on failure) and its problems.

    ``kind`` names the files a refused feature is refused in ("merge keys (<<) are not
    supported in card files"); by default the file's own name (``in template.yaml``).
    Never raises for anything a designer can put in the file.
    """
    p = Path(path)
    doc = YamlDoc(display_path(p))

    def problem(line: int, col: int, message: str, hint: str | None = None) -> list[Problem]:
        return [Problem(doc.file, line, col, message, hint=hint)]

    try:
        st = p.stat()
        size = st.st_size
        if not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode):
            # a FIFO or a device would block the read (or never end): not a YAML file
            return doc, problem(1, 1, "not a regular file (a pipe or a device?)",
                                "give a YAML file")
        if size > MAX_FILE_BYTES:
            return doc, problem(1, 1, f"file is {size} bytes, over the limit of "
                                      f"{MAX_FILE_BYTES} bytes", "card files are small text; "
                                      "is this the right file?")
        with p.open("rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        return doc, problem(1, 1, "file not found")
    except IsADirectoryError:
        return doc, problem(1, 1, "is a folder, not a YAML file")
    except OSError as exc:
        return doc, problem(1, 1, f"cannot read file: {exc.strerror or exc}")
    if len(raw) > MAX_FILE_BYTES:
        return doc, problem(1, 1, f"file is over the limit of {MAX_FILE_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        head = raw[: exc.start]
        line = head.count(b"\n") + 1
        col = exc.start - (head.rfind(b"\n") + 1) + 1
        return doc, problem(line, col, "file is not UTF-8 text", "save it as UTF-8")

    fast = _compose_fast(text)
    if fast is not None:
        loader, node = fast
        return _convert(doc, loader, node, text, kind)
    try:
        loader = _Loader(text)
    except yaml.reader.ReaderError as exc:  # a control character; PyYAML checks on load
        before = text[: exc.position]
        line = before.count("\n") + 1
        col = exc.position - (before.rfind("\n") + 1) + 1
        return doc, problem(line, col, f"character {exc.character:#06x} is not allowed in YAML",
                            "delete it; it is invisible in most editors")
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        what = exc.problem or exc.context or "invalid YAML"
        if exc.context and exc.problem:
            begun = exc.context_mark
            at = (f" (begun at line {begun.line + 1})"
                  if begun is not None and mark is not None and begun.line != mark.line else "")
            what = f"{exc.context}{at}, {exc.problem}"
        begun = exc.context_mark
        if exc.context == "while scanning a quoted scalar" and begun is not None \
                and "end of stream" in (exc.problem or ""):
            return doc, problem(begun.line + 1, begun.column + 1, "YAML syntax error: the quote "
                                "opened here is never closed", "close the quote on this line")
        quote = _runaway_quote(text, mark) if mark is not None else None
        if quote is not None:
            start, end = quote
            return doc, problem(start[0], start[1], "YAML syntax error: the quote opened here "
                                f"is closed only at line {end} (is its closing quote missing?)",
                                "close the quote on this line")
        dash = _dash_without_space(text, line)
        if dash is not None:
            dash_line, written = dash
            return doc, problem(dash_line, 1, f"YAML syntax error: {written.strip()!r} needs a space "
                                "after '-' to start a list item",
                                f"write {('- ' + written.strip()[1:].lstrip())!r}")
        off = _misindented(text, line) if "expected <block end>" in what else None
        if off is not None:
            return doc, problem(line, off[2], off[0], off[1])
        return doc, problem(line, col, f"YAML syntax error: {what}", _syntax_hint(what))
    except yaml.reader.ReaderError as exc:
        return doc, problem(1, 1, f"character {exc.character:#06x} is not allowed in YAML",
                            "delete it; it is invisible in most editors")
    except yaml.YAMLError as exc:
        return doc, problem(1, 1, f"YAML error: {exc}")
    except RecursionError:
        return doc, problem(*_too_deep(text), "YAML nested too deeply", _DEEP_HINT)
    finally:
        loader.dispose()
    return _convert(doc, loader, node, text, kind)


def _convert(doc: YamlDoc, loader: Any, node: yaml.Node | None, text: str,
             kind: str | None = None) -> tuple[YamlDoc, list[Problem]]:
    def problem(line: int, col: int, message: str, hint: str | None = None) -> list[Problem]:
        return [Problem(doc.file, line, col, message, hint=hint)]

    if node is None:
        doc.data = None
        return doc, []
    conv = _Converter(doc, loader, kind)
    try:
        doc.data = conv.convert(node, ())
    except _TooBig as exc:
        line, col = _mark(exc.node)
        doc.data = None
        doc.values.clear()
        doc.keys.clear()
        return doc, problem(line, col, f"file expands to more than {MAX_NODES} values "
                                       "(an alias bomb?)", "do not nest aliases like *name this deep")
    except RecursionError:
        doc.data = None
        return doc, problem(*_too_deep(text), "YAML nested too deeply", _DEEP_HINT)
    except _Recursive as exc:
        line, col = _mark(exc.node)
        doc.data = None
        return doc, problem(line, col, "an alias refers to a value that contains it",
                            "remove the recursive alias")
    return doc, conv.problems
