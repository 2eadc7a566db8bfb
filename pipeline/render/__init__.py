"""The print-and-play renderer: layout as data, painted to vector PDF, PNG and test transcripts.

    template.yaml --load_template--> Template
    CardSet --build_deck--> faces --layout_card--> DrawOps (points, text already in lines)
    DrawOps --PdfPainter / PngPainter / RecordingPainter--> sheets, card images, transcripts

:func:`render_set` is the entry point used by ``boneyard render`` and ``boneyard build``.
"""

from .api import FORMATS, RenderOptions, RenderResult, prepare, render_set, template_path

__all__ = ["FORMATS", "RenderOptions", "RenderResult", "prepare", "render_set", "template_path"]
