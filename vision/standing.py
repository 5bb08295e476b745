"""Standing rows: faces hanging below (or above) a long bright band, cut by their repeat.

Seen from a player's seat, a standing hand's faces point at the camera and are
often in shade: darker than an automatic table's grey cloth, so no brightness
map finds them. What does stand out is the row's top, a long thin bright band
(the white body of the tiles, lit from above), and below it the faces repeat
every tile width: thin dark seams run the whole height of the face row. For
each long thin band, the strips beside it are searched for that repeat (the
autocorrelation of a column profile of dark lines, a median over the strip so
that ink, which never spans it, counts little); a clear repeat gives the tile
width, the number of tiles along the band, and a face height from the riichi
tile's proportions. The cuts are proposals like any other: the classifier
vetoes strips that are not faces, and row completion (`agari.vision.fill`)
extends what is read.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from agari.vision.proposals import Proposal
from agari.vision.quads import quad_overlap
from agari.vision.regions import LevelContours, face_map, level_regions, threshold_levels


@dataclass(frozen=True, slots=True)
class StandingConfig:
    """Tuning (sizes in working pixels, where tiles are about 64 px long)."""

    levels: int = 5
    max_aspect: float = 0.2
    """Bands are at least five times as long as thick."""
    min_length: float = 120.0
    min_rectangularity: float = 0.8
    period: tuple[float, float] = (28.0, 160.0)
    """Tile widths searched."""
    pitch_per_thickness: tuple[float, float] = (0.8, 5.0)
    """Tile width over the band's thickness (the tiles' tops, foreshortened)."""
    ink_level: int = 30
    """Black-hat response (grey levels) that counts as ink."""
    min_ink: float = 0.02
    """Every cut tile has at least this share of ink (symbols; a blank 白 is found by
    row completion instead)."""
    min_row_ink: float = 0.05
    """And the row's median tile at least this."""
    face_ratio: float = 1.33
    """Face height over width of a riichi tile (26 x 35 mm), seen face on."""
    face_start: float = 0.5
    """The quads start this many band thicknesses back inside the band (and run on a face's
    length past its edge). The band is the tiles' tops when the faces are in shade, but
    the blank upper margin of the faces themselves when they are lit: quads hung from its
    edge then cut off the faces' tops and hold table below, which the classifier calls
    `none`. Starting inside the band covers the face either way, loose at one end as the
    classifier is trained for (real table-from-seat photo: 8 -> 11 of the 13 hand tiles
    read right; the standing-hand photo stays 13/13)."""
    near_share: float = 0.25
    """Share of the strip's depth, next to the band, whose repeat ranks rows that cover
    the same faces (see `standing_proposals`)."""
    probe_ratio: float = 1.0
    """Depth of the strip searched for the repeat, as a share of the widest tile searched
    (or a third of the band): enough to hold most of a face, little of what lies past it."""
    min_repeat: float = 0.25
    """Autocorrelation of the seam profile at the tile width, at least."""
    fit: float = 0.12
    """The band's length must be this close to a whole number of tile widths."""
    search: float = 0.15
    """Each cut may move this share of a tile width to the strongest seam."""
    score: float = 0.3
    """Proposal score of a cut tile (the locator keeps proposals scoring above 0)."""
    max_overlap: float = 0.3
    """Cut tiles overlapping a proposal already made by more than this are dropped."""


DEFAULT_STANDING = StandingConfig()


def standing_proposals(work: np.ndarray, existing: list[Proposal], *,
                       config: StandingConfig = DEFAULT_STANDING,
                       face: tuple[np.ndarray, np.ndarray] | None = None,
                       face_levels: LevelContours | None = None) -> list[Proposal]:
    """Tiles of standing rows that the other proposals do not already cover.

    Args:
        work: BGR ``uint8 (h, w, 3)`` working image.
        existing: proposals already made (kept as they are).
        config: tuning.
        face: ``face_map(work)`` and the grey image, if the caller has them.
        face_levels: the face map's levels as the proposals traced them, if made.
    """
    score, gray = face_map(work) if face is None else face
    levels = face_levels.levels() if face_levels is not None and face_levels.score is score \
        else threshold_levels(score)
    if levels.size == 0:
        return []
    levels = levels[-config.levels:]
    h, w = gray.shape
    regions = level_regions(score, levels, min_area=config.min_length * 4,
                            max_area=0.2 * h * w, min_rectangularity=config.min_rectangularity,
                            traced=face_levels)
    seams = _SeamMaps(gray)
    rows: list[tuple[float, list[Proposal]]] = []
    seen: list[tuple] = []
    for r in regions:
        if r.aspect > config.max_aspect or r.long_side < config.min_length:
            continue
        if any(_alike(r.rect, s) for s in seen):
            continue
        seen.append(r.rect)
        for side in (1, -1):
            rows.append(_row_beside(gray, seams.across(r.rect), r.rect, side, config))
    # Rows that repeat most clearly right beside their band first: where two bands' rows
    # cover the same faces (the tiles' tops, and a rim or groove of the table beside the
    # row), the tiles' own row wins (real table photo turned 7°: 2 -> 12 of 13 hand tiles,
    # a quarter turn 8 -> 11, a half turn 8 -> 11).
    rows.sort(key=lambda row: -row[0])
    known = [p.quad for p in existing]
    kept = []
    for p in (p for _, row in rows for p in row):
        if all(quad_overlap(p.quad, q) <= config.max_overlap for q in known):
            kept.append(p)
            known.append(p.quad)
    return kept


class _SeamMaps:
    """Thin dark lines across a band: the seams between its tiles. A black-hat with a flat
    kernel finds lines that cross it, so a row lying across the image needs an upright
    kernel: with the one kernel, a row photographed a quarter turn round was cut at the
    pitch of its ink (the real table photo turned: 0 of 13 hand tiles)."""

    def __init__(self, gray: np.ndarray) -> None:
        self.gray = gray
        self._maps: dict[bool, np.ndarray] = {}

    def across(self, rect: tuple) -> np.ndarray:
        """The map for a band's ``minAreaRect``: upright seams for a band lying left to
        right, level ones for a band running up the image."""
        _, u, _, _, _ = _band_axes(rect)
        upright = abs(u[0]) >= abs(u[1])
        if upright not in self._maps:
            shape = (7, 1) if upright else (1, 7)
            self._maps[upright] = cv2.morphologyEx(
                self.gray, cv2.MORPH_BLACKHAT, cv2.getStructuringElement(cv2.MORPH_RECT, shape))
        return self._maps[upright]


def _alike(a: tuple, b: tuple, tol: float = 0.08) -> bool:
    (ax, ay), (aw, ah), _ = a
    (bx, by), (bw, bh), _ = b
    la, lb = max(aw, ah), max(bw, bh)
    return abs(ax - bx) + abs(ay - by) < tol * la and abs(la - lb) < tol * la


def _band_axes(rect: tuple) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, float]:
    """Centre, unit vector along the band (pointing right), unit normal (pointing down),
    length and thickness."""
    (cx, cy), (w, h), ang = rect
    t = np.radians(ang)
    u = np.array([np.cos(t), np.sin(t)])
    v = np.array([-np.sin(t), np.cos(t)])
    if h > w:
        u, v, w, h = v, u, h, w
    if u[0] < 0:
        u = -u
    n = np.array([-u[1], u[0]])
    if n[1] < 0:
        n = -n
    return np.array([cx, cy]), u, n, float(w), float(h)


def _row_beside(gray: np.ndarray, seam_map: np.ndarray, rect: tuple, side: int,
                cfg: StandingConfig) -> tuple[float, list[Proposal]]:
    """The faces on one side of a band, and how clearly they repeat next to it (0 when
    no row is cut)."""
    centre, u, n, length, thick = _band_axes(rect)
    edge = centre + side * n * thick / 2  # the band's edge on this side, mid-length
    depth = cfg.probe_ratio * min(cfg.period[1], length / 3)
    L = int(round(length))
    H = int(round(depth))
    if H < 8:
        return 0.0, []
    start = edge - u * length / 2
    src = np.float32([start, start + u * length, start + u * length + side * n * depth,
                      start + side * n * depth])
    dst = np.float32([[0, 0], [L, 0], [L, H], [0, H]])
    m = cv2.getPerspectiveTransform(src, dst)
    strip = cv2.warpPerspective(seam_map, m, (L, H), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT)
    profile = np.median(strip[: max(2, H // 2)].astype(np.float32), axis=0)
    found = _repeat(profile, cfg)
    if found is None:
        return 0.0, []
    pitch, _ = found
    count = round(length / pitch)
    if count < 2 or abs(length / count - pitch) > cfg.fit * pitch:
        return 0.0, []
    pitch = length / count
    lo, hi = cfg.pitch_per_thickness
    if not lo * thick <= pitch <= hi * thick:
        return 0.0, []
    face = cfg.face_ratio * pitch
    cuts = _cuts(profile, count, pitch, cfg.search)
    lead = cfg.face_start * thick  # the quads start this far back inside the band
    near, far = -side * n * lead, side * n * (face + lead)
    quads = []
    for a, b in zip(cuts[:-1], cuts[1:], strict=True):
        p0 = start + u * a + near
        p1 = start + u * b + near
        quad = np.float32([p0, p1, p1 + far, p0 + far])
        if side < 0:  # keep the quad's first edge along the band
            quad = quad[[3, 2, 1, 0]]
        quads.append(quad)
    inks = [_ink_share(gray, q, cfg.ink_level) for q in quads]
    if not inks or float(np.median(inks)) < cfg.min_row_ink:
        return 0.0, []
    # How clearly the faces repeat right beside the band ranks this row against others
    # over the same faces: the tiles' own tops have seams from their edge on, a rim or
    # groove of the table has bare table first.
    near = _repeat(np.median(strip[: max(2, int(H * cfg.near_share))].astype(np.float32),
                             axis=0), cfg)
    clarity = near[1] if near is not None else 0.0
    return clarity, [Proposal(q, cfg.score) for q, ink in zip(quads, inks, strict=True)
                     if ink >= cfg.min_ink]


def _ink_share(gray: np.ndarray, quad: np.ndarray, level: int) -> float:
    """Share of a tile's inner part covered by dark strokes narrower than a third of it."""
    w, h = 32, 42
    m = cv2.getPerspectiveTransform(quad.astype(np.float32),
                                    np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
    tile = cv2.warpPerspective(gray, m, (w, h), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (11, 11))
    ink = cv2.morphologyEx(tile, cv2.MORPH_BLACKHAT, k)[4:-4, 4:-4]
    return float((ink > level).mean())


def _repeat(profile: np.ndarray, cfg: StandingConfig) -> tuple[float, float] | None:
    """The tile width, the strongest autocorrelation peak in the searched range, and the
    peak's height (how clearly the row repeats)."""
    p = profile - profile.mean()
    energy = float(p @ p)
    if energy <= 1e-6:
        return None
    lo, hi = int(cfg.period[0]), min(int(cfg.period[1]), len(p) // 2)
    if hi <= lo + 2:
        return None
    ac = np.array([float(p[:-k] @ p[k:]) for k in range(lo, hi + 1)]) / energy
    k = int(np.argmax(ac))
    if ac[k] < cfg.min_repeat or k in (0, len(ac) - 1):
        return None
    # Prefer the fundamental: a peak at half the lag nearly as strong is the real width.
    lag = lo + k
    half = lag // 2
    if half >= lo and ac[half - lo] > 0.8 * ac[k]:
        lag = half
    return float(lag), float(ac[k])


def _cuts(profile: np.ndarray, count: int, pitch: float, search: float) -> list[float]:
    """Cuts one pitch apart at the phase where the seams are strongest, each moved to the
    strongest seam nearby; the row keeps ``count`` tiles and stays within the band."""
    L = len(profile)
    phases = np.arange(int(pitch))
    strength = [profile[np.clip(np.round(ph + pitch * np.arange(count + 1)).astype(int), 0,
                                L - 1)].sum() for ph in phases]
    phase = float(phases[int(np.argmax(strength))])
    if phase > pitch / 2:  # start a tile before, so that the band's first tile is cut too
        phase -= pitch
    r = max(1, int(search * pitch))
    cuts = []
    for i in range(count + 1):
        x = int(round(phase + i * pitch))
        a, b = max(0, x - r), min(L, x + r + 1)
        cuts.append(float(a + int(np.argmax(profile[a:b]))) if b > a else float(np.clip(x, 0, L)))
    return cuts


__all__ = ["DEFAULT_STANDING", "StandingConfig", "standing_proposals"]
