"""Colour for the PDFs: sRGB as designed, or CMYK through an ICC profile for print shops.

Templates and art are sRGB. A shop that asks for CMYK gets every colour and every picture
converted by LittleCMS (Pillow's ImageCms) into the press profile, and the profile itself embedded
as the file's OutputIntent, so the shop's RIP knows what the numbers mean. We ship no profile:
the default is the CMYK (SWOP) profile Artifex ships with Ghostscript (Debian: libgs-common,
pulled in by ghostscript); ``--icc FILE`` names another, e.g. the shop's own.

Neutral greys (black text, hairlines) go to the black plate only: a four-colour black on small
text shows every bit of misregistration as coloured fringes.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageCms, ImageOps
from reportlab.lib.utils import ImageReader

from boneyard.errors import RenderError
from boneyard.files import read_bounded

#: Where Ghostscript's profiles are installed (Debian, Fedora, Homebrew, MacPorts).
CMYK_PROFILE_PATHS = (
    Path("/usr/share/color/icc/ghostscript/default_cmyk.icc"),
    Path("/usr/share/ghostscript/iccprofiles/default_cmyk.icc"),
    Path("/opt/homebrew/share/ghostscript/iccprofiles/default_cmyk.icc"),
    Path("/usr/local/share/ghostscript/iccprofiles/default_cmyk.icc"),
    Path("/opt/local/share/ghostscript/iccprofiles/default_cmyk.icc"),
)


@dataclass(frozen=True, slots=True)
class CmykProfile:
    path: str
    data: bytes
    description: str


MAX_ICC_BYTES = 32 * 1024 * 1024
"""Press profiles are a few MB (FOGRA39 is 0.6); what is larger is not read whole."""


def find_cmyk_profile(path: str | Path | None = None) -> CmykProfile:
    """The profile at ``path``, or Ghostscript's default CMYK profile; a clear error if none."""
    candidates = [Path(path)] if path else [p for p in CMYK_PROFILE_PATHS if p.is_file()]
    if not candidates:
        raise RenderError("CMYK output needs an ICC profile and none was found: install "
                          "Ghostscript's profiles (Debian/Ubuntu: apt-get install libgs-common) "
                          "or pass --icc FILE (the print shop's profile)")
    target = candidates[0]
    try:
        data = read_bounded(target, MAX_ICC_BYTES, "ICC profile")
        profile = ImageCms.ImageCmsProfile(io.BytesIO(data))
    except (OSError, ImageCms.PyCMSError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise RenderError(f"{target}: not a readable ICC profile ({why})") from None
    if profile.profile.xcolor_space.strip() != "CMYK":
        raise RenderError(f"{target}: an ICC profile for {profile.profile.xcolor_space.strip()}, "
                          "not CMYK (a press profile is needed, e.g. the shop's)")
    desc = (ImageCms.getProfileDescription(profile) or target.stem).strip()
    return CmykProfile(str(target), data, desc)


@lru_cache(maxsize=4)
def _transform(profile_data: bytes, mode: str) -> ImageCms.ImageCmsTransform:
    srgb = ImageCms.createProfile("sRGB")
    cmyk = ImageCms.ImageCmsProfile(io.BytesIO(profile_data))
    return ImageCms.buildTransform(srgb, cmyk, mode, "CMYK",
                                   renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                   flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)


class RgbInk:
    """Colours and pictures as designed: sRGB (CMYK art is converted, never passed through)."""

    cmyk = False

    def fill(self, canvas: Any, r: int, g: int, b: int) -> None:
        canvas.setFillColorRGB(r / 255, g / 255, b / 255)

    def stroke(self, canvas: Any, r: int, g: int, b: int) -> None:
        canvas.setStrokeColorRGB(r / 255, g / 255, b / 255)

    def image(self, path: str) -> ImageReader:
        return _rgb_reader(path)


class CmykInk:
    """Every colour and picture converted to the profile's CMYK."""

    cmyk = True

    def __init__(self, profile: CmykProfile) -> None:
        self.profile = profile

    def convert(self, r: int, g: int, b: int) -> tuple[float, float, float, float]:
        return _cmyk_of(self.profile.data, r, g, b)

    def fill(self, canvas: Any, r: int, g: int, b: int) -> None:
        canvas.setFillColorCMYK(*self.convert(r, g, b))

    def stroke(self, canvas: Any, r: int, g: int, b: int) -> None:
        canvas.setStrokeColorCMYK(*self.convert(r, g, b))

    def image(self, path: str) -> ImageReader:
        return _cmyk_reader(path, self.profile.data)


@lru_cache(maxsize=1024)
def _cmyk_of(profile_data: bytes, r: int, g: int, b: int) -> tuple[float, float, float, float]:
    if r == g == b:
        return (0.0, 0.0, 0.0, round(1 - r / 255, 4))
    px = ImageCms.applyTransform(Image.new("RGB", (1, 1), (r, g, b)),
                                 _transform(profile_data, "RGB"))
    assert px is not None
    c, m, y, k = px.getpixel((0, 0))  # type: ignore[misc]
    return (round(c / 255, 4), round(m / 255, 4), round(y / 255, 4), round(k / 255, 4))


def has_alpha(im: Image.Image) -> bool:
    return im.mode in ("RGBA", "LA", "PA", "La", "RGBa") or "transparency" in im.info


def upright_rgb(path: str) -> Image.Image:
    """The art turned upright (EXIF), in RGB or RGBA; CMYK art through its own embedded profile
    when it has one (else Pillow's plain conversion)."""
    with Image.open(path) as im:
        upright = ImageOps.exif_transpose(im)
        if upright.mode == "CMYK":
            icc = upright.info.get("icc_profile")
            if icc:
                try:
                    src = ImageCms.ImageCmsProfile(io.BytesIO(icc))
                    out = ImageCms.profileToProfile(upright, src, ImageCms.createProfile("sRGB"),
                                                    outputMode="RGB")
                    if out is not None:
                        return out
                except ImageCms.PyCMSError:
                    pass
            return upright.convert("RGB")
        return upright.convert("RGBA" if has_alpha(upright) else "RGB")


@lru_cache(maxsize=64)
def _rgb_reader(path: str) -> ImageReader:
    """A plain RGB or grey JPEG goes in as its file (embedded as is, small); anything turned by
    its EXIF orientation or stored in CMYK is converted first, as in the PNG."""
    with Image.open(path) as im:
        turned = im.getexif().get(0x0112, 1) not in (0, 1)
        plain_jpeg = im.format == "JPEG" and im.mode in ("RGB", "L")
        if plain_jpeg and not turned:
            return ImageReader(path)
        if im.format != "JPEG" and not turned and im.mode != "CMYK":
            return ImageReader(path)
    return ImageReader(upright_rgb(path))


class _CmykReader(ImageReader):
    """reportlab embeds a PIL CMYK image as DeviceCMYK; this one also carries the art's alpha
    as a soft mask (Pillow has no CMYK-with-alpha mode)."""

    def __init__(self, cmyk: Image.Image, alpha: Image.Image | None) -> None:
        super().__init__(cmyk)
        self._alpha = alpha

    def getRGBData(self) -> Any:  # reportlab's name for it
        data = super().getRGBData()
        if self._alpha is not None:
            self._dataA = ImageReader(self._alpha)
        return data


@lru_cache(maxsize=64)
def _cmyk_reader(path: str, profile_data: bytes) -> ImageReader:
    rgb = upright_rgb(path)
    alpha = rgb.getchannel("A") if rgb.mode == "RGBA" else None
    cmyk = ImageCms.applyTransform(rgb.convert("RGB"), _transform(profile_data, "RGB"))
    assert cmyk is not None
    return _CmykReader(cmyk, alpha)
