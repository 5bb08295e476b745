"""What `agari label` reads: files, folders (recursive) and glob patterns → named images.

Every image gets a *name*: its path relative to the common folder of all the
inputs, in POSIX form (``photos/a.jpg`` → ``a.jpg`` when ``photos/`` is the only
input; ``a/1.jpg`` and ``b/1.jpg`` when both ``a/`` and ``b/`` are given). Names
key the journal and are what the annotation files call the images, so two
different files never share one, and the listing is sorted by name: that order
is the order of every output file.

Folders are searched recursively for files with an image suffix; hidden files
and folders (``.name``) are left out, and other files are counted as "not an
image". A file named on the command line, or matched by a pattern, is always
tried, whatever its suffix: if it is not an image the job reports it.

>>> from pathlib import Path
>>> _anchor_of_pattern("shots/2024-*/*.jpg")
PosixPath('shots')
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass
from pathlib import Path

from agari.datasets.imagefiles import IMAGE_SUFFIXES
from agari.engine.errors import InvalidInput

_GLOB_CHARS = frozenset("*?[")


@dataclass(frozen=True, slots=True)
class InputImage:
    """One file to label.

    Attributes:
        name: POSIX path relative to the inputs' common folder (unique in a listing).
        path: absolute path of the file.
    """

    name: str
    path: Path


@dataclass(frozen=True, slots=True)
class InputListing:
    """The expanded inputs of a job.

    Attributes:
        images: files to label, sorted by name.
        not_images: files inside input folders without an image suffix, sorted.
        root: the common folder names are relative to.
    """

    images: tuple[InputImage, ...]
    not_images: tuple[Path, ...]
    root: Path

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(i.name for i in self.images)


def _is_hidden(rel: Path) -> bool:
    return any(part.startswith(".") for part in rel.parts)


def _walk(folder: Path) -> tuple[list[Path], list[Path]]:
    """Image files and other files under ``folder`` (recursive, hidden entries left out)."""
    images, others = [], []
    for path in folder.rglob("*"):
        if _is_hidden(path.relative_to(folder)) or not path.is_file():
            continue
        (images if path.suffix.lower() in IMAGE_SUFFIXES else others).append(path)
    return images, others


def _anchor_of_pattern(pattern: str) -> Path:
    """The leading folders of a glob pattern, before its first wildcard part."""
    fixed: list[str] = []
    for part in Path(pattern).parts[:-1]:  # the last part names files, never the anchor
        if _GLOB_CHARS & set(part):
            break
        fixed.append(part)
    return Path(*fixed) if fixed else Path(".")


def _expand_one(spec: str) -> tuple[Path, list[Path], list[Path]]:
    """``(anchor folder, image files, other files)`` for one INPUT argument.

    Raises:
        InvalidInput: a path that does not exist, or a pattern that matches nothing.
    """
    path = Path(spec).expanduser()
    if path.is_dir():
        images, others = _walk(path.absolute())
        return path.absolute(), images, others
    if path.is_file():
        return path.absolute().parent, [path.absolute()], []
    if not _GLOB_CHARS & set(spec):
        raise InvalidInput(f"no such file or folder: {spec}", code="no_input")
    matches = sorted(glob.glob(os.path.expanduser(spec), recursive=True))
    if not matches:
        raise InvalidInput(f"nothing matches {spec}", code="no_input")
    images, others = [], []
    for match in map(Path, matches):
        if match.is_dir():
            found, rest = _walk(match.absolute())
            images += found
            others += rest
        elif match.is_file():
            images.append(match.absolute())
    return _anchor_of_pattern(os.path.expanduser(spec)).absolute(), images, others


def expand_inputs(specs: list[str] | tuple[str, ...], *,
                  exclude: Path | None = None) -> InputListing:
    """Expand INPUT arguments (files, folders, glob patterns) into named images.

    Args:
        specs: the arguments as given; relative paths are taken from the current folder.
        exclude: a folder whose files are never inputs (the job's own output folder,
            which may sit inside an input folder and holds links to the images).

    Returns:
        The listing, images sorted by name; a file reached twice is listed once.

    Raises:
        InvalidInput: no inputs, a missing path, or a pattern that matches nothing.
    """
    if not specs:
        raise InvalidInput("no inputs: give image files, folders or glob patterns",
                           code="no_input")
    anchors, files, others = [], [], []
    for spec in specs:
        anchor, found, rest = _expand_one(str(spec))
        anchors.append(anchor)
        files += found
        others += rest
    if exclude is not None:
        skip = Path(exclude).absolute()
        files = [p for p in files if not p.is_relative_to(skip)]
        others = [p for p in others if not p.is_relative_to(skip)]
    root = Path(os.path.commonpath([str(a) for a in anchors]))
    by_name: dict[str, InputImage] = {}
    for path in files:
        name = path.relative_to(root).as_posix()
        by_name.setdefault(name, InputImage(name=name, path=path))
    images = tuple(by_name[n] for n in sorted(by_name))
    return InputListing(images=images, not_images=tuple(sorted(set(others))), root=root)
