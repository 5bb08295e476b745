"""Net faces framed at 0.7-0.8 mean core probability contest the classical box over them
(`CoreConfig.contest`)."""

from dataclasses import replace

from agari.vision.cores import CoreConfig
from agari.vision.locate import HAND_LOCATE
from locate_factories import hand_tiles_found


def test_a_box_over_a_whole_meld_gives_way_to_the_nets_faces():
    """Tuning render 980071: one classical box covers a standing hand's melds, six faces
    the net frames at 0.74-0.79; at the old 0.8 none of them contested it."""
    cores = HAND_LOCATE.cores or CoreConfig()
    assert cores.contest == 0.7
    before = hand_tiles_found(980071, replace(cores, contest=0.8))
    after = hand_tiles_found(980071, cores)
    assert after >= before + 5  # 10 -> 16 of 17 with the shipped nets
