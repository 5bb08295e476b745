import pytest
from agari.datasets.names import RIICHI_TRAY_CLASSES, canonical_label, resolve_class_order
from agari.engine.errors import InvalidInput


@pytest.mark.parametrize(
    "name,expected",
    [("5m", "5m"), ("0p", "0p"), ("back", "back"), ("1man", "1m"), ("9sou", "9s"),
     ("5pin", "5p"), ("5pin-dora", "0p"), ("Man5-Dora", "0m"), ("m3", "3m"), ("pin9", "9p"),
     ("5mr", "0m"), ("E", "1z"), ("C", "7z"), ("east", "1z"), ("Ton", "1z"), ("haku", "5z"),
     ("hatsu", "6z"), ("chun", "7z"), ("north", "4z"), ("中", "7z"), ("3-sou", "3s"),
     ("facedown", "back"), ("BACK", "back"), ("none", "none"),
     ("4mr", InvalidInput), ("10m", InvalidInput), ("dragon", InvalidInput), ("", InvalidInput)],
)
def test_canonical_label(name, expected):
    if isinstance(expected, str):
        assert canonical_label(name) == expected
    else:
        with pytest.raises(expected):
            canonical_label(name)


def test_riichi_tray_order():
    order = resolve_class_order("riichi-tray")
    assert len(order) == len(RIICHI_TRAY_CLASSES) == 34 and len(set(order)) == 34
    assert order[:3] == ("1m", "1p", "1s")
    assert order[27:] == ("7z", "1z", "5z", "6z", "4z", "2z", "3z")


def test_class_order_forms():
    assert resolve_class_order("1man, back ,chun") == ("1m", "back", "7z")
    assert resolve_class_order(["m1", "p1"]) == ("1m", "1p")
    with pytest.raises(InvalidInput, match="unknown class order"):
        resolve_class_order("nosuchpreset")
