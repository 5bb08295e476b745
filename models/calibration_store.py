"""Tile-set profiles on disk: ``<name>.json`` (readable facts) + ``<name>.npz`` (arrays).

The JSON file is the profile's identity and says everything a person may want
to read: format version, set name, the classifier it was made with, the red
fives the set has, colours, the photos it was built from and how ``adjust``
weighs the evidence. The ``.npz`` beside it holds the embeddings (``samples``,
``labels``, ``tile_ids``) and, for outside readers, the per-class
``prototypes`` (centred unit means) with their ``prototype_labels``; agari
itself recomputes those from the samples. ``shapes`` holds the views' shape
descriptors, ``colours`` their middle colours, CIE Lab
(`agari.models.calibration_features`), ``inks`` their ink colour histograms
(absent in profiles made before they were kept: the ink evidence is then off), and
``view_probs`` the model's
probabilities for them (how it reads this set).

Both files are written to temporary names and renamed into place, the arrays
first, so a stopped write never leaves a profile whose halves disagree. The
folder is chosen by the caller (the CLI passes `agari.paths.tileset_dir`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import asdict
from pathlib import Path

import numpy as np
from agari.engine.errors import InvalidInput, ModelError
from agari.models.calibration import AdjustConfig, PhotoRecord, TilesetProfile
from agari.models.calibration_evidence import unit_rows

FORMAT = "agari-tileset"
FORMAT_VERSION = 1
"""Bump when the files change incompatibly; older readers refuse newer files."""

NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
"""A profile name: letters, digits, ``_ . -``; at most 64 characters; no path separators."""

_FINGERPRINT_CHUNK = 1 << 20


def check_name(name: str) -> str:
    """``name`` if it is a valid profile name.

    Raises:
        InvalidInput: empty, too long, or holding characters outside `NAME_PATTERN`.
    """
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise InvalidInput(f"invalid tile-set name {name!r}: use letters, digits, '_', '.', '-' "
                           f"(at most 64, starting with a letter or digit)", code="bad_tileset")
    return name


def model_fingerprint(path: str | os.PathLike[str] | None) -> str:
    """A short SHA-256 of the classifier file: embeddings only match the model that made them."""
    if path is None:
        return "unknown"
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(_FINGERPRINT_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()[:16]


def profile_paths(root: str | os.PathLike[str], name: str) -> tuple[Path, Path]:
    """``(json, npz)`` paths of profile ``name`` in folder ``root``."""
    check_name(name)
    base = Path(root)
    return base / f"{name}.json", base / f"{name}.npz"


def list_profiles(root: str | os.PathLike[str]) -> list[str]:
    """Names of the profiles saved in ``root`` (both files present), sorted."""
    base = Path(root)
    if not base.is_dir():
        return []
    return sorted(p.stem for p in base.glob("*.json")
                  if NAME_PATTERN.fullmatch(p.stem) and p.with_suffix(".npz").is_file())


def exists(root: str | os.PathLike[str], name: str) -> bool:
    js, npz = profile_paths(root, name)
    return js.is_file() and npz.is_file()


def save(profile: TilesetProfile, root: str | os.PathLike[str]) -> Path:
    """Write ``profile`` into ``root`` (replacing one of the same name); returns the JSON path."""
    js, npz = profile_paths(root, profile.name)
    js.parent.mkdir(parents=True, exist_ok=True)
    labels, prototypes = _prototypes(profile)
    tmp_npz = npz.with_name(f".{npz.name}.{os.getpid()}.tmp.npz")
    np.savez_compressed(tmp_npz, samples=profile.samples.astype(np.float32),
                        shapes=profile.shapes.astype(np.float32),
                        colours=profile.colours.astype(np.float32),
                        inks=profile.inks.astype(np.float32),
                        view_probs=profile.view_probs.astype(np.float32),
                        labels=profile.labels.astype(np.int32),
                        tile_ids=profile.tile_ids.astype(np.int32),
                        prototypes=prototypes, prototype_labels=labels)
    os.replace(tmp_npz, npz)
    tmp_js = js.with_name(f".{js.name}.{os.getpid()}.tmp")
    tmp_js.write_text(json.dumps(_header(profile), indent=2, ensure_ascii=False) + "\n",
                      encoding="utf-8")
    os.replace(tmp_js, js)
    return js


def load(root: str | os.PathLike[str], name: str) -> TilesetProfile:
    """Read profile ``name`` from ``root``.

    Raises:
        InvalidInput: no such profile (code ``no_tileset``; the message lists those saved).
        ModelError: the files are damaged, from a newer agari, or disagree.
    """
    js, npz = profile_paths(root, name)
    if not (js.is_file() and npz.is_file()):
        saved = list_profiles(root)
        hint = f"saved: {', '.join(saved)}" if saved else "none saved yet"
        raise InvalidInput(f"no tile-set profile {name!r} ({hint}); make one with "
                           f"'agari calibrate PHOTO --name {name}'", code="no_tileset")
    try:
        head = json.loads(js.read_text(encoding="utf-8"))
        with np.load(npz) as arrays:
            arrays = (*(arrays[k] for k in ("samples", "shapes", "colours", "view_probs",
                                            "labels", "tile_ids")),
                      arrays.get("inks"))
    except (OSError, ValueError, KeyError) as exc:
        raise ModelError(f"tile-set profile {name!r} is damaged ({js.parent}): {exc}") from None
    return _from_header(head, arrays, source=str(js))


def load_file(path: str | os.PathLike[str]) -> TilesetProfile:
    """Read the profile whose JSON file is ``path`` (its ``.npz`` lies beside it)."""
    p = Path(path)
    return load(p.parent, p.stem)


def _header(profile: TilesetProfile) -> dict:
    return {
        "format": FORMAT, "version": FORMAT_VERSION, "name": profile.name,
        "model_id": profile.model_id, "class_names": list(profile.class_names),
        "embedding_dim": profile.dim, "shape_dim": int(profile.shapes.shape[1]),
        "reds": list(profile.reds),
        "back_colour_bgr": _colour(profile.back_colour),
        "face_colour_bgr": _colour(profile.face_colour),
        "photos": [asdict(p) for p in profile.photos],
        "adjust": asdict(profile.config),
        "summary": {k: v for k, v in profile.summary().items() if k != "name"},
    }


def _from_header(head: dict, arrays: tuple[np.ndarray, ...], *, source: str) -> TilesetProfile:
    if head.get("format") != FORMAT:
        raise ModelError(f"{source} is not an agari tile-set profile")
    if int(head.get("version", 0)) > FORMAT_VERSION:
        raise ModelError(f"{source} was written by a newer agari (format {head['version']})")
    samples, shapes, colours, view_probs, labels, tile_ids, inks = arrays
    try:
        return TilesetProfile(
            name=str(head["name"]), model_id=str(head["model_id"]),
            class_names=tuple(head["class_names"]),
            samples=np.asarray(samples, np.float32), shapes=np.asarray(shapes, np.float32),
            colours=np.asarray(colours, np.float32),
            view_probs=np.asarray(view_probs, np.float32),
            labels=np.asarray(labels, np.int32),
            tile_ids=np.asarray(tile_ids, np.int32),
            inks=None if inks is None else np.asarray(inks, np.float32),
            reds=tuple(head["reds"]),
            back_colour=_tuple(head.get("back_colour_bgr")),
            face_colour=_tuple(head.get("face_colour_bgr")),
            photos=tuple(PhotoRecord(**p) for p in head.get("photos", [])),
            config=AdjustConfig(**head.get("adjust", {})),
        )
    except (KeyError, TypeError) as exc:
        raise ModelError(f"{source}: malformed profile ({exc})") from None


def _prototypes(profile: TilesetProfile) -> tuple[np.ndarray, np.ndarray]:
    """``(labels (K,), prototypes (K, D))``: centred unit mean of each known class."""
    f = profile.features(profile.samples)
    classes = np.unique(profile.labels)
    protos = np.stack([f[profile.labels == c].mean(axis=0) for c in classes]) if len(classes) \
        else np.zeros((0, profile.dim), np.float32)
    return classes.astype(np.int32), unit_rows(protos)


def _colour(c: tuple[float, ...] | None) -> list[float] | None:
    return None if c is None else [round(float(v), 2) for v in c]


def _tuple(c: list[float] | None) -> tuple[float, float, float] | None:
    return None if c is None else tuple(float(v) for v in c)  # type: ignore[return-value]
