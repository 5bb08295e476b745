"""Scoring speed: agari's Python API against the PyPI `mahjong` package, same hands, one process.

Hands are random valid wins (4- and 3-player, with random situations) from
`agari.engine.random_hands`. Two comparisons:

* **objects** — each engine is handed its own ready-made inputs (agari: `Hand`,
  `WinContext`; mahjong: 136-tile ids, `Meld`, `HandConfig`) and only scores.
* **requests** — each starts from the same request dict (HAND notation and
  options, as in a batch line) and builds its inputs first.

Each is run ``--repeat`` times; the best CPU time is reported. agari is also
timed with every memo it keeps emptied before each pass ("cold": suit
patterns, honour facts, payments, dora rows, rows per gate combination, and
for requests the runs, melds and indicator strings read), as when every hand
is new; only the shipped agari table (``engine/data/suit_parts.bin``) stays.

    python bench/engine_speed.py --hands 5000
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from contextlib import suppress
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "engine"))  # the mahjong adapter used by the tests
sys.path.insert(0, str(REPO / "bench"))

from agari.engine import requests as agari_requests  # noqa: E402
from agari.engine import scoring  # noqa: E402
from agari.engine.errors import AgariError  # noqa: E402
from agari.engine.random_hands import random_win  # noqa: E402
from agari.engine.requests import parse_request, request_of  # noqa: E402
from agari.engine.rules import Rules  # noqa: E402
from agari.engine.scoring import score  # noqa: E402
from mahjong.hand_calculating.hand import HandCalculator  # noqa: E402
from mahjong_batch import score as mahjong_request  # noqa: E402
from mahjong_ref import tenhou_options, to_mahjong  # noqa: E402


def clear_caches() -> None:
    scoring.clear_caches()
    agari_requests.clear_caches()


def best_time(run, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    cases = [random_win(rng, players=3 if i % 4 == 0 else 4) for i in range(args.hands)]
    rules = Rules.preset("tenhou")
    options = {p: tenhou_options(p) for p in (3, 4)}
    mj_inputs = [to_mahjong(h, c, options[c.players]) for h, c in cases]
    requests = [request_of(h, c) for h, c in cases]

    def agari_objects():
        for hand, ctx in cases:
            with suppress(AgariError):
                score(hand, ctx, rules)

    def mahjong_objects():
        for tiles, win, melds, dora, ura, config in mj_inputs:
            HandCalculator.estimate_hand_value(
                tiles,
                win,
                melds=melds,
                dora_indicators=dora,
                config=config,
                ura_dora_indicators=ura,
            )

    def agari_requests():
        cache: dict = {}
        for request in requests:
            with suppress(AgariError):
                score(*parse_request(request, rules_cache=cache))

    def mahjong_requests():
        for request in requests:
            mahjong_request(request)

    def agari_cold():
        clear_caches()
        agari_objects()

    def agari_requests_cold():
        clear_caches()
        agari_requests()

    n = args.hands
    rows = [("agari  objects (cold caches)", best_time(agari_cold, args.repeat))]
    rows.append(("agari  objects", best_time(agari_objects, args.repeat)))
    rows.append(("mahjong objects", best_time(mahjong_objects, args.repeat)))
    rows.append(("agari  requests (cold caches)", best_time(agari_requests_cold, args.repeat)))
    rows.append(("agari  requests", best_time(agari_requests, args.repeat)))
    rows.append(("mahjong requests", best_time(mahjong_requests, args.repeat)))
    print(f"{n} hands (seed {args.seed}), CPU time, best of {args.repeat}")
    for name, seconds in rows:
        print(f"  {name:30s} {n / seconds:10.0f} hands/s  {seconds / n * 1e6:7.1f} µs/hand")
    t = dict(rows)
    print(
        f"ratio objects:  agari is {t['mahjong objects'] / t['agari  objects']:.2f}x faster "
        f"({t['mahjong objects'] / t['agari  objects (cold caches)']:.2f}x with cold caches)"
    )
    print(
        f"ratio requests: agari is {t['mahjong requests'] / t['agari  requests']:.2f}x faster "
        f"({t['mahjong requests'] / t['agari  requests (cold caches)']:.2f}x with cold caches)"
    )


if __name__ == "__main__":
    main()
