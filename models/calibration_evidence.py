"""The arithmetic of a profile's evidence: similarities, colour, the model's confusions.

Pure numpy functions over arrays; `agari.models.calibration.TilesetProfile`
holds the arrays and decides how they combine.
"""

from __future__ import annotations

import numpy as np

_TINY = np.float32(1e-12)
BLANK_INK = 0.5
"""Share of a crop's ink histogram in its blank (last) bin from which its ink is not compared."""
SLAB_CONFUSED = 0.3
"""`back_slabs`: how often the model must read one slab's layout views as the other."""


def unit_rows(x: np.ndarray) -> np.ndarray:
    """Rows of ``x`` scaled to unit length (zero rows stay zero); float32 ``(N, D)``."""
    x = np.asarray(x, np.float32)
    norm = np.linalg.norm(x, axis=1, keepdims=True)
    return x / np.maximum(norm, _TINY)


def top_mean(sim: np.ndarray, k: int) -> np.ndarray:
    """Row-wise mean of the ``k`` largest values of ``sim`` ``(N, M)``."""
    if sim.shape[1] > k:
        sim = np.partition(sim, sim.shape[1] - k, axis=1)[:, -k:]
    return sim.mean(axis=1)


def tile_mean(samples: np.ndarray, tile_ids: np.ndarray) -> np.ndarray:
    """Mean over tiles of each tile's mean view (so tiles with more views weigh the same)."""
    if not len(samples):
        return np.zeros(samples.shape[1], np.float32)
    ids, inverse = np.unique(tile_ids, return_inverse=True)
    sums = np.zeros((len(ids), samples.shape[1]), np.float64)
    np.add.at(sums, inverse, samples)
    per_tile = sums / np.bincount(inverse)[:, None]
    return per_tile.mean(axis=0).astype(np.float32)


def class_similarity(channels: list[tuple[np.ndarray, float]], labels: np.ndarray,
                     n_classes: int, k: int) -> np.ndarray:
    """Per class, the weighted sum over channels of the mean of the ``k`` nearest views.

    Args:
        channels: ``(similarity (N, S) to the S views, weight)`` per channel.
        labels: int ``(S,)`` class of each view.

    Returns:
        float32 ``(N, n_classes)``; ``-inf`` for classes without views.
    """
    n = len(channels[0][0]) if channels else 0
    out = np.full((n, n_classes), -np.inf, np.float32)
    for c in np.unique(labels):
        cols = labels == c
        out[:, c] = sum(weight * top_mean(sim[:, cols], k) for sim, weight in channels)
    return out


def colour_penalty(colours: np.ndarray, view_colours: np.ndarray, labels: np.ndarray,
                   n_classes: int, *, tolerance: float, weight: float,
                   relative: bool = False) -> np.ndarray:
    """float32 ``(N, n_classes)`` ≤ 0: ``weight`` per ``tolerance`` by which a crop's colour
    is further than ``tolerance`` from every view of a class (0 for classes without views).

    ``relative`` measures each class's distance beyond the crop's nearest class's: the
    light and white balance of a photo move a crop off every view alike (a dim layout
    photo, a bright table lamp: 20-35 L* apart), and what still tells kinds apart is how
    much further one is than the nearest.
    """
    out = np.zeros((len(colours), n_classes), np.float32)
    if not len(labels) or not len(colours) or weight == 0:
        return out
    dist = np.linalg.norm(np.asarray(colours, np.float32)[:, None] - view_colours[None], axis=2)
    kinds = np.unique(labels)
    nearest = np.stack([dist[:, labels == c].min(axis=1) for c in kinds], axis=1)
    if relative:
        nearest -= nearest.min(axis=1, keepdims=True)
    out[:, kinds] = -weight * np.maximum(0.0, nearest / tolerance - 1)
    return out


def confusion(view_probs: np.ndarray, labels: np.ndarray, n_classes: int, *,
              smoothing: float) -> np.ndarray:
    """How the model reads this set: ``M[c, c']`` = its mean probability of ``c'`` over the
    views of ``c``, mixed with ``smoothing`` of the identity; identity rows for classes
    without views. float32 ``(C, C)``, rows summing to 1."""
    m = np.eye(n_classes, dtype=np.float32)
    for c in np.unique(labels):
        m[c] = (1 - smoothing) * view_probs[labels == c].mean(axis=0) + smoothing * m[c]
    return m


def confusion_log_likelihood(probs: np.ndarray, m: np.ndarray,
                             prior: np.ndarray | None = None) -> np.ndarray:
    """``log π(c) Σ_c' p(c') / π(c') M[c, c']``: how likely the truth is ``c``, given the
    model's output read through this set's confusions ``m`` and the classes' prior ``π``.

    Where the model reads this set's 4s as 0s, a crop it calls 0s may be either;
    where it reads the set right, this is just its own ``log p`` (the prior cancels).
    Where two kinds of this set look alike to it (a face-down tile and a blank 白 of a
    white-backed set), the prior decides: ``p / π`` is what the crop itself says, and
    ``π`` how often each kind turns up. ``prior`` float32 ``(C,)``; None is uniform.
    """
    p = np.asarray(probs, np.float32)
    if prior is None:
        return np.log(np.maximum(p @ m.T, _TINY))
    prior = np.asarray(prior, np.float32)
    return np.log(np.maximum((p / prior) @ m.T, _TINY)) + np.log(prior)


def reliability(view_probs: np.ndarray, labels: np.ndarray, n_classes: int) -> np.ndarray:
    """float32 ``(C,)``: per class, the share of the model's first choices of it over the
    views that were right, with one more choice counted wrong (1 for a class it neither
    chose nor had views of).

    Precision, not recall: a crop the model calls ``c`` is in doubt where it called other
    kinds' views ``c``, not where it missed views of ``c`` (those show up in the confusions).
    The extra wrong choice keeps the evidence speaking a little where few views vouched for
    ``c`` (16 right of 16: 0.94), and fully where none did (a kind the model never chose).
    """
    chosen = view_probs.argmax(axis=1)
    out = np.ones(n_classes, np.float32)
    for c in np.union1d(np.unique(labels), np.unique(chosen)):
        picked = chosen == c
        out[c] = (picked & (labels == c)).sum() / (picked.sum() + 1.0)
    return out


def views_vouch(probs: np.ndarray, m: np.ndarray, *, full: float, sure: float) -> np.ndarray:
    """float32 ``(N, 1)`` ≤ 1: how far this set's views of the model's first choice ``c`` can
    speak against it, ``min(1, M[c, c] / full)`` where the model gives ``c`` at least ``sure``
    (1 elsewhere).

    Where the model read the set's own views of ``c`` as ``c`` on only a few (a washed-out
    or loosely boxed layout tile: ``M[c, c]`` 0.13), those views are unlike the set's ``c``
    in play, and a crop the model reads surely as ``c`` looks unlike them for that reason,
    not because it is another kind (hollow 100318: 5p read at 0.97 in play, its views read
    as 5p on none of 16, six crops moved to 4p by the similarity).
    """
    p = np.asarray(probs, np.float32)
    first = p.argmax(axis=1)
    own = np.minimum(1.0, m[first, first] / np.float32(full))
    return np.where(p.max(axis=1) >= sure, own, 1.0).astype(np.float32)[:, None]


def keep_mass(out: np.ndarray, probs: np.ndarray, k: int,
              kept: np.ndarray | None = None) -> np.ndarray:
    """``out`` (N, C) with column ``k`` set back to ``probs``'s (or to ``kept`` ``(N,)``)
    and the rest rescaled."""
    p_k = probs[:, k:k + 1] if kept is None else np.asarray(kept, np.float32)[:, None]
    rest = 1.0 - out[:, k:k + 1]
    out = out * (1.0 - p_k) / np.maximum(rest, _TINY)
    out[:, k] = p_k[:, 0]
    return out


def ink_similarity(inks: np.ndarray, view_inks: np.ndarray, labels: np.ndarray,
                   n_classes: int) -> np.ndarray:
    """Per class, the Bhattacharyya coefficient of each crop's ink histogram with that of
    the class's nearest view (1: the same colours in the same shares).

    Args:
        inks: float32 ``(N, K)`` the crops' ink histograms (rows summing to 1).
        view_inks: float32 ``(S, K)`` the views'; ``labels`` int ``(S,)`` their classes.

    Returns:
        float32 ``(N, n_classes)``. Classes without views take the crop's best (they
        neither gain nor lose); a blank crop (a 白, a back, bare table, strokes blurred
        away) says nothing of its ink and gets 0 for every class.
    """
    crops = unit_rows(np.sqrt(np.maximum(inks, 0.0)))
    views = unit_rows(np.sqrt(np.maximum(view_inks, 0.0)))
    sim = class_similarity([(crops @ views.T, 1.0)], labels, n_classes, 1)
    has = np.isin(np.arange(n_classes), labels)
    if len(sim) and has.any() and not has.all():
        sim[:, ~has] = sim[:, has].max(axis=1, keepdims=True)
    sim[np.asarray(inks)[:, -1] >= BLANK_INK] = 0.0
    return sim


def kept_none(out: np.ndarray, probs: np.ndarray, m: np.ndarray, sims: np.ndarray, s_ref: float,
              *, inked: np.ndarray, inked_kinds: np.ndarray, k: int) -> np.ndarray:
    """The model's ``none`` probability to keep (`keep_mass`), less the share this set's own
    tiles explain: float32 ``(N,)``.

    The model reads some sets' tiles as no tile at all (an off-palette 3s read as ``none``
    on 3 views in 4). Where a crop carries ink and looks more like this set's views of the
    tile kind the evidence favours (``c``, not ``none``) than a view typically looks like
    another kind (``s_ref``), its ``none`` is discounted by ``M[c, none]``, how often the
    model called the views of ``c`` no tile. Blank crops and kinds this set draws blank (a
    plain 白, the back) are left alone: bare table looks as flat as they do.

    Args:
        out: float32 ``(N, C)`` the evidence's posterior; ``probs`` the model's.
        m: float32 ``(C, C)`` the set's confusions (`confusion`); ``sims`` ``(N, C)``
            the crops' similarities to each kind.
        inked: bool ``(N,)`` crops with ink; ``inked_kinds``: bool ``(C,)`` kinds whose
            views mostly carry ink.
        k: the ``none`` column.
    """
    tiles = out.copy()
    tiles[:, k] = -1.0
    best = tiles.argmax(axis=1)
    rows = np.arange(len(best))
    share = m[best, k] * (inked & inked_kinds[best] & (sims[rows, best] > s_ref))
    return (probs[:, k] * (1.0 - share)).astype(np.float32)


def inked_kinds(inks: np.ndarray, labels: np.ndarray, n_classes: int) -> np.ndarray:
    """bool ``(n_classes,)``: classes most of whose views carry ink (``inks`` ``(S, K)``,
    blank share in the last bin; none without ink histograms or without views)."""
    if not inks.shape[1]:
        return np.zeros(n_classes, bool)
    views = np.bincount(labels, minlength=n_classes)
    blank = np.bincount(labels, inks[:, -1] >= BLANK_INK, n_classes)
    return (views > 0) & (blank < 0.5 * views)


def back_slabs(colours: np.ndarray, labels: np.ndarray, inked: np.ndarray, m: np.ndarray,
               back: int, *, tolerance: float, confused: float = SLAB_CONFUSED) -> np.ndarray:
    """bool ``(C,)``: the back and the kinds this set draws as the same blank slab as it —
    no ink on most of their views (``inked`` ``(C,)`` False), their views' median colour
    within ``tolerance`` Lab units of the back's, and the model reading the views of the one
    as the other at ``confused`` or more (``m``, `confusion`: it cannot part them either).
    All False where there is no such kind.

    A white-backed set's back and its blank 白 are, from above, one slab: the similarity
    of a crop to the views of the one or the other is a matter of how each layout tile was
    framed and lit, not of which it is (tuning set 100417: the model alone read 31 of its 32
    backs in play as 白, and with a profile 4-9 of them, by family, stayed 白 for being nearer
    the 白's layout views). The prior decides there.
    """
    n = len(inked)
    out = np.zeros(n, bool)
    if tolerance <= 0 or not np.any(labels == back):
        return out
    ref = np.median(colours[labels == back], axis=0)
    for c in np.unique(labels):
        if c != back and not inked[c] and max(m[back, c], m[c, back]) >= confused:
            out[c] = np.linalg.norm(np.median(colours[labels == c], axis=0) - ref) < tolerance
    if out.any():
        out[back] = True
    return out


def tie_slabs(sims: np.ndarray, slabs: np.ndarray) -> np.ndarray:
    """``sims`` ``(N, C)`` with the columns of ``slabs`` (`back_slabs`) all set to their
    largest: one slab's similarity says nothing about which of them a crop is."""
    if not slabs.any():
        return sims
    out = sims.copy()
    out[:, slabs] = sims[:, slabs].max(axis=1, keepdims=True)
    return out
