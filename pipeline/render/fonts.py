"""Fonts by file, never by system lookup: the same TTF measures the text and paints it.

The Bitstream Vera faces that ship inside reportlab are registered by path with reportlab (for
``stringWidth`` and the PDF) and opened by path with Pillow (for PNGs), so line breaks computed
once hold in both. A template may add its own TTF files from inside its set folder.
"""

from __future__ import annotations

import errno
import hashlib
from functools import lru_cache
from pathlib import Path

import reportlab
from PIL import ImageFont
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from boneyard.errors import RenderError

VERA_DIR = Path(reportlab.__file__).resolve().parent / "fonts"

#: Built-in font names a template can use without declaring anything.
BUILTIN_FONTS: dict[str, Path] = {
    "sans": VERA_DIR / "Vera.ttf",
    "sans-bold": VERA_DIR / "VeraBd.ttf",
    "sans-italic": VERA_DIR / "VeraIt.ttf",
    "sans-bold-italic": VERA_DIR / "VeraBI.ttf",
}

MAX_FONT_BYTES = 64 * 2**20
"""The largest font file a template may declare (a large CJK font is 20-30 MiB)."""

# font id (a built-in name, or a template's name plus a hash of its file) -> reportlab name/file
_registered: dict[str, str] = {}
_paths: dict[str, Path] = {}


def register(name: str, path: Path) -> str:
    """Register a font file; returns the font id layouts use for it.

    Built-ins keep their names; a set's own font gets an id tied to its file, so two sets may
    both call a font "display" and each gets its own.
    """
    path = Path(path).resolve()
    try:  # a file replaced since (a watch's save) is another font: its own id, read again
        st = path.stat()
        stamp = f"{path}:{st.st_size}:{st.st_mtime_ns}"
    except OSError:
        stamp = str(path)
    font_id = name if name in BUILTIN_FONTS and path == BUILTIN_FONTS[name].resolve() else (
        f"{name}.{hashlib.sha1(stamp.encode()).hexdigest()[:8]}")
    if font_id in _registered:
        return font_id
    if not path.exists():
        raise RenderError(f"font {name!r}: file not found: {path} (check the path under 'fonts:' "
                          "in template.yaml; paths are from the set folder)")
    if not path.is_file():  # a folder, a FIFO (reading it would hang), a device
        raise RenderError(f"font {name!r}: {path} is not a regular file (give a .ttf file)")
    size = path.stat().st_size
    if size > MAX_FONT_BYTES:  # read whole by the PDF writer: a wrong file must not fill memory
        raise RenderError(f"font {name!r}: {path} is {size / 2**20:.0f} MiB, over the "
                          f"{MAX_FONT_BYTES // 2**20} MiB a font file may be (is it the font "
                          "meant? a font for cards is a few MiB; a subset of a large one will do)")
    rl = "by-" + font_id
    try:
        pdfmetrics.registerFont(TTFont(rl, str(path)))
    except Exception as exc:  # TTFError, OSError, and a cut file's struct.error or IndexError
        why = str(exc) if isinstance(exc, (TTFError, OSError)) else \
            f"the file ends or breaks off inside its tables: {exc}"
        raise RenderError(f"font {name!r}: {path} is not a usable TrueType font ({why}; give a "
                          ".ttf file, or leave the font out to use a built-in one)") from None
    _registered[font_id] = rl
    _paths[font_id] = path
    return font_id


def rl_name(font_id: str) -> str:
    """reportlab's name for a font id (registering a built-in on first use)."""
    try:
        return _registered[font_id]
    except KeyError:
        if font_id in BUILTIN_FONTS:
            return _registered[register(font_id, BUILTIN_FONTS[font_id])]
        raise RenderError(
            f"unknown font {font_id!r} (built-in: {', '.join(BUILTIN_FONTS)}; or declare it "
            "under 'fonts:' in template.yaml)"
        ) from None


def path_of(name: str) -> Path:
    rl_name(name)
    return _paths[name]


def width(text: str, font: str, size: float) -> float:
    """Advance width in points, from the font file's own metrics."""
    return pdfmetrics.stringWidth(text, rl_name(font), size)


def missing_glyphs(text: str, font: str) -> list[str]:
    """The characters of ``text`` the font file cannot draw (they would print as empty boxes)."""
    have = pdfmetrics.getFont(rl_name(font)).face.charToGlyph
    out: list[str] = []
    for ch in text:
        if ord(ch) not in have and not ch.isspace() and ch not in out:
            out.append(ch)
    return out


@lru_cache(maxsize=256)
def pillow_font(name: str, size_px: float) -> ImageFont.FreeTypeFont:
    """The font file opened by Pillow, which happens when the images are drawn: a file removed
    or spoilt since it was measured (saved while the set rendered) is an OSError naming it,
    not Pillow's bare "cannot open resource", which was reported as the output folder's."""
    path = path_of(name)
    try:
        # BASIC layout: no kerning or shaping, exactly the advances reportlab measured with.
        return ImageFont.truetype(str(path), size_px, layout_engine=ImageFont.Layout.BASIC)
    except OSError as exc:
        if exc.filename is not None:
            raise
        gone = not path.is_file()
        raise OSError(errno.ENOENT if gone else errno.EINVAL,
                      "No such file or directory" if gone else "not a usable TrueType font any more",
                      str(path)) from None
