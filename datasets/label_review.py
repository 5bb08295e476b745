"""The review aid: one self-contained HTML contact sheet of the least certain tiles.

After a bulk run, a person checks the tiles the classifier was least sure of
first. `write_review` picks the ``count`` written tiles with the lowest
confidence across the whole dataset and shows each one's upright crop (with a
little context), its label, its confidence and the runner-up classes, and
which image it came from. Crops are embedded as JPEG ``data:`` URIs and the
style sheet is inline, so the file can be mailed or opened anywhere offline.
"""

from __future__ import annotations

import base64
import heapq
import html
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from agari.datasets.label_export import kept_tiles
from agari.datasets.label_journal import JournalEntry
from agari.engine.errors import AgariError
from agari.vision.detection import TileDetection

REVIEW_COUNT = 200
"""Tiles shown by default."""
CROP_SIZE = (120, 90)
"""Crop ``(height, width)`` in the sheet, margin included."""
CROP_MARGIN = 0.25
"""Context around each tile, as a fraction of its size: neighbours help a reviewer."""
JPEG_QUALITY = 85


@dataclass(frozen=True, slots=True)
class ReviewTile:
    """One tile on the sheet: which image, which tile of it, and what the model said."""

    name: str
    index: int
    source: str
    detection: TileDetection


def lowest_confidence(entries: Iterable[JournalEntry], *, count: int = REVIEW_COUNT,
                      min_confidence: float = 0.0) -> list[ReviewTile]:
    """The ``count`` written tiles with the lowest confidence, least sure first
    (ties broken by image name and tile index, so the sheet is stable)."""
    candidates = (ReviewTile(e.name, i, e.source, det)
                  for e in entries if e.done
                  for i, det in kept_tiles(e.record, min_confidence=min_confidence))
    return heapq.nsmallest(max(0, count), candidates,
                           key=lambda t: (t.detection.confidence, t.name, t.index))


def _crops(tiles: Sequence[ReviewTile]) -> dict[tuple[str, int], str]:
    """JPEG data URIs of the tiles' crops; an image that cannot be read again is left out."""
    import cv2
    from agari.datasets.label_worker import decode_image
    from agari.vision.crops import crop_tile

    by_source: dict[str, list[ReviewTile]] = {}
    for tile in tiles:
        by_source.setdefault(tile.source, []).append(tile)
    out = {}
    for source, group in by_source.items():
        try:
            image = decode_image(Path(source).read_bytes(), group[0].name)
        except (OSError, AgariError):
            continue
        for tile in group:
            crop = crop_tile(image, tile.detection.quad, sideways=tile.detection.sideways,
                             size=CROP_SIZE, margin=CROP_MARGIN)
            ok, buf = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
            if ok:
                out[(tile.name, tile.index)] = ("data:image/jpeg;base64,"
                                                + base64.b64encode(buf.tobytes()).decode("ascii"))
    return out


_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5em;background:#f4f2ec;color:#222}
h1{font-size:1.3em;margin:0 0 .2em}p.sub{margin:0 0 1.2em;color:#555}
.grid{display:flex;flex-wrap:wrap;gap:10px}
figure{margin:0;width:150px;background:#fff;border-radius:6px;padding:8px;
box-shadow:0 1px 3px #0002;font-size:12px}
figure img,figure .missing{display:block;margin:0 auto 6px;height:120px;width:90px;
object-fit:contain;background:#ddd}
.label{font-size:20px;font-weight:600}.conf{float:right;font-size:14px;padding-top:5px}
.low{color:#b00}.mid{color:#b60}.alts{color:#444;margin:2px 0}
.src{color:#777;word-break:break-all}
"""


def _card(tile: ReviewTile, uri: str | None) -> str:
    det = tile.detection
    conf = det.confidence
    tone = "low" if conf < 0.5 else "mid" if conf < 0.8 else ""
    alts = " · ".join(f"{html.escape(n)} {p:.0%}" for n, p in det.alternatives[1:])
    image = (f'<img src="{uri}" alt="tile crop">' if uri
             else '<div class="missing">image unavailable</div>')
    return (f'<figure>{image}<span class="label">{html.escape(det.label_name or "")}</span>'
            f'<span class="conf {tone}">{conf:.0%}</span>'
            f'<div class="alts">{alts or "&nbsp;"}</div>'
            f'<figcaption class="src">{html.escape(tile.name)} #{tile.index}</figcaption>'
            f"</figure>")


def render_review(tiles: Sequence[ReviewTile], crops: dict[tuple[str, int], str], *,
                  images: int, min_confidence: float) -> str:
    """The sheet's HTML text."""
    cards = "\n".join(_card(t, crops.get((t.name, t.index))) for t in tiles)
    cut = f"; tiles below {min_confidence:.0%} were dropped" if min_confidence > 0 else ""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>agari label review</title>"
            f"<style>{_STYLE}</style></head><body>\n"
            "<h1>agari label: least certain tiles</h1>\n"
            f'<p class="sub">{len(tiles)} tiles from {images} labelled images, lowest '
            f"confidence first{cut}. Each shows the label written, its confidence "
            "and the runner-up classes.</p>\n"
            f'<div class="grid">\n{cards}\n</div>\n</body></html>\n')


def write_review(entries: Sequence[JournalEntry], path: Path, *, count: int = REVIEW_COUNT,
                 min_confidence: float = 0.0) -> int:
    """Write the contact sheet to ``path`` (atomically).

    Returns:
        The number of tiles on the sheet.
    """
    tiles = lowest_confidence(entries, count=count, min_confidence=min_confidence)
    text = render_review(tiles, _crops(tiles), images=sum(1 for e in entries if e.done),
                         min_confidence=min_confidence)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return len(tiles)
