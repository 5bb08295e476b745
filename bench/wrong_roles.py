"""Which failing scenes of a photo_eval run hold hand tiles in the wrong role, and what kind
of mistake each is (a diagnostic, not a benchmark; issue #7).

Usage::

    python bench/wrong_roles.py RUN_DIR [SEED ...]

Reads ``RUN_DIR/SEED.json`` (``photo_eval.py --show-failures 100`` output; by default the
five tuning sets) and compares each failure's truth with its reading by the tiles' names
alone (red fives as fives), so it reads the hand texts, not the tiles' boxes. Kinds:
``win->hand`` (the winning tile read among the concealed ones), ``hand->win``,
``meld->hand`` / ``hand->meld``, ``meld->win``, ``kan->pon`` (``closed`` for a closed kan),
``dora->hand`` / ``hand->dora``. ``lost`` counts the tiles that differ between the two
hands as multisets: 0 a mistake of roles alone, 1 a tile lost or misread as well.
"""
import json
import re
import sys
from collections import Counter
from pathlib import Path

SETS = ("1040000", "1030000", "1020000", "1000000", "990000")
SUITS = "mpsz"


def tiles(text: str) -> list[str]:
    """``'406m'`` -> ``['4m', '5m', '6m']`` (a red five counted as a five)."""
    return [d.replace("0", "5") + s for digits, s in re.findall(r"(\d+)([mpsz])", text)
            for d in digits]


def parse(text: str | None):
    """(concealed, winning tile or None, melds as (kind, tiles)) of a hand text."""
    if not text:
        return None
    first, *rest = text.split()
    melds = [("closed" if m.startswith("[") else "open", tiles(m)) for m in rest]
    groups = re.findall(r"\d+[mpsz]", first)
    concealed = tiles(first)
    win = None
    # The winning tile is written last, as a group of its own after the sorted hand.
    if len(groups) > 1 and len(groups[-1]) == 2:
        suits = [g[-1] for g in groups[:-1]]
        last = groups[-1][-1]
        late = any(SUITS.index(s) > SUITS.index(last) for s in suits)
        if last in suits or late or len(concealed) + 3 * len(melds) == 14:
            win = concealed.pop()
    return concealed, win, melds


def every(hand) -> Counter:
    concealed, win, melds = hand
    return Counter(concealed) + Counter(t for _, m in melds for t in m) + Counter([win] * bool(win))


def kinds(failure: dict) -> list[str]:
    truth, read = parse(failure["truth"]), parse(failure["read"])
    if read is None:
        return []
    (tc, tw, tm), (rc, rw, rm) = truth, read
    out = []
    extra = Counter(rc) - Counter(tc)
    t_meld = Counter(t for _, m in tm for t in m)
    r_meld = Counter(t for _, m in rm for t in m)
    if tw and rw != tw and extra[tw]:
        out.append("win->hand")
    if rw and rw != tw and Counter(tc)[rw] > Counter(rc)[rw]:
        out.append("hand->win")
    if rw and rw != tw and t_meld[rw] > r_meld[rw]:
        out.append("meld->win")
    if n := sum(((t_meld - r_meld) & extra).values()):
        out.append(f"meld->hand x{n}")
    if n := sum(((r_meld - t_meld) & (Counter(tc) - Counter(rc))).values()):
        out.append(f"hand->meld x{n}")
    for kind, m in tm:
        if len(m) == 4 and any(len(r) == 3 and set(r) == {m[0]} for _, r in rm):
            out.append("kan->pon" + (" (closed)" if kind == "closed" else ""))
    td = Counter(t.replace("0", "5") for t in failure["truth_dora"])
    rd = Counter(t.replace("0", "5") for t in failure["dora"] or [])
    if (td - rd) & (every(read) - every(truth)):
        out.append("dora->hand")
    if (rd - td) & (every(truth) - every(read)):
        out.append("hand->dora")
    return out


def lost(failure: dict) -> int:
    a, b = every(parse(failure["truth"])), every(parse(failure["read"]))
    return sum(((a - b) + (b - a)).values())


def failures(run: str, seed: str) -> list[dict]:
    """The failures listed in ``RUN/SEED.json``; a clear one-line error when unreadable."""
    path = Path(run, f"{seed}.json")
    try:
        return json.loads(path.read_text())["synthetic"]["failures"]
    except (OSError, ValueError, KeyError, TypeError) as err:
        kind = err.__class__.__name__
        sys.exit(f"wrong_roles: {path}: not a photo_eval --show-failures run ({kind})")


def main(argv: list[str]) -> None:
    if not argv or argv[0].startswith("-"):
        sys.exit("usage: python bench/wrong_roles.py RUN_DIR [SEED ...]")
    run, seeds = argv[0], argv[1:] or SETS
    total: Counter = Counter()
    for s in seeds:
        for f in failures(run, s):
            found = kinds(f)
            if not found:
                continue
            print(f["seed"], f["kind"], "hand right" if f["exact_hand"] else "hand wrong",
                  f"lost {lost(f)}", ", ".join(found), "|", f["truth"], "|", f["read"])
            total.update(k.split(" x")[0] for k in found)
    print("scenes by kind:", dict(total.most_common()))


if __name__ == "__main__":
    main(sys.argv[1:])
