"""Could any layout plan have read the true hand? (a diagnostic, not a benchmark; issue #7).

Usage (tuning seeds only)::

    nice -n 10 python bench/plan_oracle.py SEED [SEED ...]

Reads each scene as photo_eval does (`read_photo`, JPEG at 90), then lays out the final
detections every way `analyse_layout` offers (as located, turned round either way, with a
sideways tile taken upright, with the quads called none taken in) and reads each plan
alone (`read_hand`). Per scene one line: the truth, the hand read, whether it is exact,
and whether some plan's reading (its best or a listed alternative) gives the true hand;
then per plan its size, melds, best reading's level and cost (minus log probability) and
hand. ``some plan exact False`` where the reading is wrong: the detections (a tile lost,
misread or boxed twice) leave no layout that reads the hand, so no change to the layout
or to which plan the reading takes can mend it; ``True``: the plan choice lost it.
"""
import sys

import cv2

sys.path.insert(0, "bench")
from agari.datasets.scene import SceneConfig, render_scene  # noqa: E402
from agari.engine.errors import AgariError  # noqa: E402
from agari.engine.rules import Rules  # noqa: E402
from agari.vision.layout import analyse_layout  # noqa: E402
from agari.vision.layout_truth import hand_key  # noqa: E402
from agari.vision.reading import read_hand  # noqa: E402
from agari.vision.reading_checks import LEVEL_NAMES  # noqa: E402
from photo_eval import expected_layout, situation_for  # noqa: E402

from agari.pipeline import read_photo  # noqa: E402

SCENES = SceneConfig(width=1920, height=1080, kinds=("shown", "standing", "table"),
                     fit_prob=1.0)
LAYOUTS = ({}, {"flip": True}, {"flip": False}, {"upright": True}, {"unread": True})
"""`analyse_layout` keyword sets whose plans are pooled."""


def plans_of(dets: list) -> list:
    """Every plan `analyse_layout` offers the detections, each once."""
    plans: list = []
    for kw in LAYOUTS:
        try:
            plans += [p for p in analyse_layout(dets, **kw) if p not in plans]
        except AgariError:
            continue
    return plans


def scene(seed: int) -> list[str]:
    """The report lines of one scene."""
    image, ann = render_scene(seed, SCENES)
    truth = expected_layout(ann.hand, ann.win, ann.tiles)
    situation, _ = situation_for(truth, Rules())
    jpeg = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1],
                        cv2.IMREAD_COLOR)
    result = read_photo(jpeg, situation, name=str(seed))
    dets, want = list(result.detections), hand_key(truth)
    lines, any_exact = [], False
    for k, plan in enumerate(plans_of(dets)):
        head = f"  plan {k}: size {plan.size}, {len(plan.melds)} melds"
        try:
            reading = read_hand(dets, [plan], situation)
        except AgariError as err:
            lines.append(f"{head}: {type(err).__name__}")
            continue
        exact = any(hand_key(r.layout) == want for r in (reading.best, *reading.alternatives))
        any_exact |= exact
        best = reading.best
        lines.append(f"{head}: {LEVEL_NAMES[best.level]}, cost {best.cost:.2f}, "
                     f"{best.layout.hand_text}{'  <- true hand' if exact else ''}")
    read = result.layout.hand_text if result.layout is not None else None
    chosen = result.layout is not None and hand_key(result.layout) == want
    return [f"{seed} truth {truth.hand_text} | read {read} | exact {chosen} | "
            f"some plan exact {any_exact}", *lines]


def main() -> None:
    for seed in map(int, sys.argv[1:]):
        print("\n".join(scene(seed)), flush=True)


if __name__ == "__main__":
    main()
