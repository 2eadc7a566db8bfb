"""Fonts by file, never by system lookup: the same TTF measures the text and paints it.

The Bitstream Vera faces that ship inside reportlab are registered by path with reportlab (for
``stringWidth`` and the PDF) and opened by path with Pillow (for PNGs), so line breaks computed
once hold in both. A template may add its own TTF files from inside its set folder.
"""

from __future__ import annotations

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

# font name used by the template -> reportlab font name (unique per file)
_registered: dict[str, str] = {}
_paths: dict[str, Path] = {}


def register(name: str, path: Path) -> str:
    """Make ``name`` usable in layouts; returns the name reportlab knows the file by."""
    path = Path(path).resolve()
    known = _paths.get(name)
    if known is not None:
        if known != path:
            raise RenderError(f"font {name!r} is already bound to {known}, not {path}")
        return _registered[name]
    rl_name = "by-" + name
    # Two sets may bind the same name to different files; key reportlab's name by the file too.
    if any(p != path and n == rl_name for n, p in ((_registered[k], _paths[k]) for k in _paths)):
        rl_name = f"by-{name}-{hashlib.sha1(str(path).encode()).hexdigest()[:8]}"
    if not path.is_file():
        raise RenderError(f"font {name!r}: file not found: {path}")
    try:
        pdfmetrics.registerFont(TTFont(rl_name, str(path)))
    except (TTFError, OSError) as exc:
        raise RenderError(f"font {name!r}: {path} is not a usable TrueType font ({exc})") from None
    _registered[name] = rl_name
    _paths[name] = path
    return rl_name


def ensure_builtin() -> None:
    for name, path in BUILTIN_FONTS.items():
        register(name, path)


def rl_name(name: str) -> str:
    """reportlab's name for a layout font name (registering a built-in on first use)."""
    try:
        return _registered[name]
    except KeyError:
        if name in BUILTIN_FONTS:
            return register(name, BUILTIN_FONTS[name])
        raise RenderError(
            f"unknown font {name!r} (built-in: {', '.join(BUILTIN_FONTS)}; or declare it under "
            f"'fonts:' in template.yaml)"
        ) from None


def path_of(name: str) -> Path:
    rl_name(name)
    return _paths[name]


def width(text: str, font: str, size: float) -> float:
    """Advance width in points, from the font file's own metrics."""
    return pdfmetrics.stringWidth(text, rl_name(font), size)


@lru_cache(maxsize=256)
def pillow_font(name: str, size_px: float) -> ImageFont.FreeTypeFont:
    # BASIC layout: no kerning or shaping, exactly the advances reportlab measured with.
    return ImageFont.truetype(str(path_of(name)), size_px, layout_engine=ImageFont.Layout.BASIC)
