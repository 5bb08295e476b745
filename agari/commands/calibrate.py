"""`agari calibrate PHOTO... --name SET`: teach agari one tile set from photos of its layout.

``agari calibrate --layout`` prints the reference layout (see
`agari.models.calibration_layout`); each PHOTO shows it, read by the locator
and bound to kinds by position; the views' embeddings go into the profile
``SET`` in the user data folder (`agari.paths.tileset_dir`). Running it again
with the same name adds the new photos (other angles, other light);
``--replace`` starts the profile afresh. ``agari calibrate --list`` lists the
saved sets.

Other commands read with a profile through ``--tileset SET``: they declare the
option with `TilesetOption` and wrap their classifier with `with_tileset`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from agari.output import EXIT_ERROR, emit_json, reported_errors

TilesetOption = Annotated[str | None, typer.Option(
    "--tileset", help="Read with the calibrated profile of this tile set (agari calibrate).")]
"""The ``--tileset`` option, for commands that read tiles."""


def register(app: typer.Typer) -> None:
    """Attach `agari calibrate` to the main app."""
    app.command(name="calibrate")(calibrate)


def with_tileset(classifier, tileset: str | None):
    """``classifier`` reading with the saved profile ``tileset``; unchanged for None.

    ``classifier`` None stands for the shipped model (loaded here only when a
    tile set is given; otherwise None is returned, for the caller's default).

    Raises:
        InvalidInput: no such profile; ModelError: made with another model.
    """
    if tileset is None:
        return classifier
    from agari.models.calibration_apply import calibrated
    from agari.models.calibration_store import load
    from agari.models.classifier import TileClassifier
    from agari.paths import tileset_dir

    profile = load(tileset_dir(), tileset)
    return calibrated(classifier if classifier is not None else TileClassifier.load(), profile)


def tileset_file(tileset: str | None) -> Path | None:
    """The saved profile's JSON file (for jobs whose workers load it), None for None.

    Raises:
        InvalidInput: no such profile.
    """
    if tileset is None:
        return None
    from agari.models.calibration_store import exists, load, profile_paths
    from agari.paths import tileset_dir

    root = tileset_dir()
    if not exists(root, tileset):
        load(root, tileset)  # raises the error that lists the saved profiles
    return profile_paths(root, tileset)[0]


def calibrate(
    photos: Annotated[list[Path] | None, typer.Argument(
        help="Photos of the tile set laid out as --layout shows.", show_default=False)] = None,
    name: Annotated[str | None, typer.Option(
        "--name", help="The tile set's profile name (new photos add to it).")] = None,
    reds: Annotated[str | None, typer.Option(
        help="Red fives the set has and the layout shows: e.g. 0m,0p,0s (default), 0p, none.")
    ] = None,
    layout: Annotated[bool, typer.Option(
        "--layout", help="Print the reference layout and exit.")] = False,
    list_: Annotated[bool, typer.Option("--list", help="List the saved tile sets.")] = False,
    replace: Annotated[bool, typer.Option(
        help="Start the profile afresh instead of adding to it.")] = False,
    force: Annotated[bool, typer.Option(
        help="Keep the layout's kinds even where the model clearly reads another tile.")
    ] = False,
    model: Annotated[Path | None, typer.Option(
        help="An agari classifier .onnx (default: the shipped model).")] = None,
    json_: Annotated[bool, typer.Option("--json", help="One JSON document.")] = False,
) -> None:
    """Calibrate agari to your own tile set from a photo of one tile of each kind."""
    with reported_errors(json_mode=json_):
        from agari.engine.errors import InvalidInput
        from agari.models.calibration_layout import ReferenceLayout, parse_reds

        if layout:
            _show_layout(ReferenceLayout(parse_reds(reds)), json_)
            return
        if list_:
            _show_list(json_)
            return
        if not photos or name is None:
            raise InvalidInput("give PHOTO... and --name SET (or --layout, --list)")
        result = _calibrate(photos, name, reds=reds, replace=replace, force=force, model=model)
        _show_result(result, json_)
    if result["errors"]:
        raise typer.Exit(EXIT_ERROR)


def _calibrate(photos: list[Path], name: str, *, reds: str | None, replace: bool, force: bool,
               model: Path | None) -> dict:
    """Read each photo into the profile; save after every photo that worked."""
    from agari.engine.errors import AgariError
    from agari.models.calibration_build import calibrate_layout_photo
    from agari.models.classifier import TileClassifier, read_image
    from agari.paths import tileset_dir

    root = tileset_dir()
    clf = TileClassifier.load(model)
    profile = _start(root, name, clf, reds=reds, replace=replace)
    added, errors = [], []
    for path in photos:
        try:
            image = read_image(path)
            profile, report = calibrate_layout_photo(profile, image, clf, source=path.name,
                                                     force=force)
        except AgariError as err:
            errors.append({"image": str(path), "error": {"code": err.code,
                                                          "message": err.message}})
            continue
        from agari.models.calibration_store import save

        saved = save(profile, root)
        added.append({"image": str(path), **report.to_json()})
    return {"name": name, "path": str(saved) if added else None, "added": added,
            "errors": errors, "profile": profile.summary() if added else None}


def _start(root: Path, name: str, clf, *, reds: str | None, replace: bool):
    """The profile to add to: the saved one, or a new one (``replace`` or none saved)."""
    from agari.engine.errors import InvalidInput
    from agari.models.calibration_apply import check_compatible, new_profile
    from agari.models.calibration_layout import parse_reds
    from agari.models.calibration_store import check_name, exists, load

    check_name(name)
    wanted = parse_reds(reds) if reds is not None else None
    if exists(root, name) and not replace:
        profile = load(root, name)
        check_compatible(clf, profile)
        if wanted is not None and wanted != profile.reds:
            raise InvalidInput(
                f"tile set {name!r} was calibrated with red fives "
                f"{','.join(profile.reds) or 'none'}; pass the same --reds or --replace")
        return profile
    return new_profile(name, clf, reds=wanted if wanted is not None else parse_reds(None))


def _show_layout(layout, json_: bool) -> None:
    if json_:
        emit_json(layout.to_json())
        return
    from agari.output import console

    out = console()
    for text in ("Lay out one tile of each kind, face up, in these rows (tiles a finger's width "
                 "apart at most, rows apart), and photograph them from above or at an angle:\n",
                 layout.text(),
                 f"\n{len(layout.names)} tiles. [##] = one tile face down (its back). "
                 "Red fives: --reds (default 0m,0p,0s; 'none' for a set without)."):
        out.print(text, markup=False, soft_wrap=True)


def _show_list(json_: bool) -> None:
    from agari.models.calibration_store import list_profiles, load
    from agari.paths import tileset_dir

    root = tileset_dir()
    sets = [load(root, n).summary() for n in list_profiles(root)]
    if json_:
        emit_json({"folder": str(root), "tilesets": sets})
        return
    from agari.output import console

    out = console()
    if not sets:
        out.print(f"no tile sets calibrated yet ({root})", markup=False, soft_wrap=True)
    for s in sets:
        out.print(f"{s['name']}: {s['photos']} photo(s), {s['kinds']} kinds, "
                  f"red fives {' '.join(s['reds']) or 'none'}", markup=False, soft_wrap=True)


def _show_result(result: dict, json_: bool) -> None:
    import sys

    if json_:
        emit_json(result)
    for err in result["errors"]:
        sys.stderr.write(f"agari: error: {err['image']}: {err['error']['message']}\n")
    if json_ or not result["added"]:
        return
    from agari.output import console

    out = console()

    def say(text: str) -> None:
        out.print(text, markup=False, soft_wrap=True)

    for a in result["added"]:
        wrong = ", ".join(f"{d['expected']}→{d['read']}" for d in a["disagreements"])
        say(f"{a['image']}: {a['tiles']} tiles, {a['views']} views; the model alone read "
            f"{round(a['model_agreement'] * a['tiles'])}/{a['tiles']} right"
            + (f" ({wrong})" if wrong else ""))
    p = result["profile"]
    say(f"tile set {result['name']!r}: {p['photos']} photo(s), {p['kinds']} kinds, "
        f"red fives {' '.join(p['reds']) or 'none'}; saved {result['path']}")
    say(f"use it with --tileset {result['name']}")
