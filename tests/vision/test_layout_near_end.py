"""Near bridges (`LayoutConfig.near_bridges`) take no lone called tile ending the row as the
evidence of a meld in loose pieces (issue #7)."""

from __future__ import annotations

from agari.vision.layout_parse import bridged_cuts


def _cuts(groups: list[str]) -> list[list[tuple[str, int, int]]]:
    return [[(c.kind, c.start, c.stop) for c in cut] for cut in bridged_cuts(groups, near=True)]


def test_a_meld_in_loose_pieces_after_its_called_tile_is_bridged() -> None:
    # Tuning render 1000043: a meld lying flat beside a standing hand, each quad loose.
    assert [("concealed", 0, 10), ("concealed", 10, 11), ("open", 11, 14)] in \
        _cuts(["PPPPPPPPPP", "P", "S", "P", "P"])


def test_a_lone_called_tile_ending_the_row_closes_no_gap_between_two_pieces() -> None:
    # Tuning render 990037: the hand's last two tiles loose, the winning tile lying flat.
    assert _cuts(["PPPPPPPPPPP", "P", "P", "S"]) == []
    # Not at the row's end, it still does.
    assert _cuts(["PPPPPPPPPPP", "P", "P", "S", "PP"]) != []
