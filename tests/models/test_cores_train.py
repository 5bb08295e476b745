"""Training data of the tile-core net: targets point at the true corners through every crop,
turn and mirror; the trained net exports to ONNX that agrees with torch."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from agari.models import cores_train as ct  # noqa: E402
from agari.vision.cores import CORNER_NORM, STRIDE  # noqa: E402


@pytest.mark.parametrize("turn", [0, 30, 90, 160, 200, 300])
def test_corners_are_ordered_clockwise_from_the_top_left_whatever_the_turn(turn):
    box = np.float32([[-10, -15], [10, -15], [10, 15], [-10, 15]])  # upright: TL, TR, BR, BL
    a = np.deg2rad(turn)
    rot = np.float32([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    quad = (box @ rot.T + 100)[np.random.default_rng(turn).permutation(4)]
    got = ct.clockwise_from_top_left(quad)
    centre = got.mean(axis=0)
    first = got[0] - centre
    assert first[0] < 0 and first[1] < 0 if turn % 90 == 0 else True
    lead = np.arctan2(first[1], first[0])  # the first corner is the one nearest up-left
    nearest = min(np.abs((np.arctan2(*(q - centre)[::-1]) + 3 * np.pi / 4 + np.pi)
                         % (2 * np.pi) - np.pi) for q in quad)
    assert abs((lead + 3 * np.pi / 4 + np.pi) % (2 * np.pi) - np.pi) == pytest.approx(nearest)
    a, b, c = got[0], got[1], got[2]
    assert (b - a)[0] * (c - b)[1] - (b - a)[1] * (c - b)[0] > 0  # clockwise on screen


@pytest.fixture(scope="module")
def tiny_data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cores")
    recipe = ct.Recipe(scenes=3, size=(480, 272), first_seed=5)
    ct.render_data(recipe, folder)
    return recipe, ct.load_data(folder)


def test_rendered_targets_mark_cores_inside_their_faces(tiny_data):
    _, data = tiny_data
    part = data[0]
    assert part.images.shape == (3, 272, 480, 3)
    rows, cols = np.nonzero(part.ids[0])
    assert len(rows) > 0
    tiles = part.ids[0][rows, cols].astype(int) - 1
    at = np.stack([(cols + 0.5) * STRIDE, (rows + 0.5) * STRIDE], -1)
    centres = part.quads[0][tiles].mean(axis=1)
    sides = np.linalg.norm(part.quads[0][tiles, 1] - part.quads[0][tiles, 0], axis=1)
    # Core pixels lie within the middle half of their face (a pixel's slack allowed).
    assert np.all(np.linalg.norm(at - centres, axis=1) <= 0.5 * 1.5 * sides + 2 * STRIDE)


def test_crops_keep_targets_on_their_tiles_through_turns_and_mirrors(tiny_data):
    recipe, data = tiny_data
    sampler = ct.Sampler(data, recipe, np.random.default_rng(3))
    checked = 0
    for _ in range(12):
        image, cls, offsets, weight = sampler.crop(0, int(sampler.rng.integers(3)))
        assert image.shape == (3, recipe.crop, recipe.crop) and image.dtype == np.uint8
        rows, cols = np.nonzero(weight > 0)
        if not len(rows):
            continue
        assert set(np.unique(cls[rows, cols])) <= {ct.FACE_UP, ct.FACE_DOWN}
        at = np.stack([(cols + 0.5) * STRIDE, (rows + 0.5) * STRIDE], -1)
        corners = offsets[:, rows, cols].T.reshape(-1, 4, 2) * CORNER_NORM + at[:, None]
        # Every core pixel sits in the middle half of the face its corners describe, give or
        # take the output grid's rounding (drawn on the scene's grid, then resampled with
        # the crop's zoom of up to 1.6). A turn or mirror applied to the image but not to
        # the corners would put them a whole tile away.
        centre = corners.mean(axis=1)
        spread = np.linalg.norm(corners - centre[:, None], axis=2).max(axis=1)
        big = spread >= 15
        dist = np.linalg.norm(at - centre, axis=1)
        assert np.all(dist[big] <= 0.5 * spread[big] + 4 * STRIDE)
        checked += int(big.any())
    assert checked >= 3


def test_a_net_exports_to_onnx_that_agrees_with_torch(tmp_path):
    net = ct.CoreNet().eval()
    path = ct.export(net, tmp_path / "cores.onnx")
    from agari.vision.cores import find_cores, load_session

    session = load_session(str(path))
    out = session.run(None, {"image": np.zeros((1, 3, 64, 96), np.float32)})[0]
    assert out.shape == (1, 11, 32, 48)
    np.testing.assert_allclose(out[0, :3].sum(axis=0), 1.0, atol=1e-5)
    assert isinstance(find_cores(np.zeros((100, 150, 3), np.uint8), session=session), list)


def _weights(net) -> torch.Tensor:
    return torch.cat([p.flatten() for p in net.state_dict().values()
                      if p.dtype.is_floating_point])


def test_loader_processes_repeat_a_run_exactly_and_change_only_where_the_crops_come_from(
        tiny_data, tmp_path):
    recipe, data = tiny_data
    runs = [ct.train(ct.Recipe(steps=6, batch=2, crop=128, threads=1, loaders=loaders,
                               holdout=0), data, tmp_path / f"{k}.pt")
            for k, loaders in enumerate((2, 2, 0))]
    assert torch.equal(_weights(runs[0]), _weights(runs[1]))
    # Inline crops come from one stream, loader crops from one per process: not the same run.
    assert not torch.equal(_weights(runs[0]), _weights(runs[2]))
    saved = torch.load(tmp_path / "0.pt")
    assert torch.equal(torch.cat([p.flatten() for p in saved.values()
                                  if p.dtype.is_floating_point]), _weights(runs[0]))


def test_batches_travel_compact_and_widen_to_what_the_loss_takes(tiny_data):
    recipe, data = tiny_data
    sampler = ct.Sampler(data, recipe, np.random.default_rng(1))
    packed = sampler.batch([(0, 0), (0, 1)])
    assert [t.dtype for t in packed] == [torch.uint8, torch.uint8, torch.float16, torch.float16]
    x, cls, offsets, weight = ct._unpack(packed, torch.device("cpu"))
    assert (x.dtype, cls.dtype, offsets.dtype) == (torch.float32, torch.int64, torch.float32)
    class_loss, corner_loss = ct.loss(ct.CoreNet().logits(x), cls, offsets, weight)
    assert torch.isfinite(class_loss) and torch.isfinite(corner_loss)


def test_a_run_can_start_from_saved_weights(tiny_data, tmp_path):
    recipe, data = tiny_data
    start = ct.CoreNet()
    torch.save(start.state_dict(), tmp_path / "start.pt")
    quiet = ct.Recipe(steps=1, batch=2, crop=128, threads=1, lr=1e-9, holdout=0)
    resumed = ct.train(quiet, data, tmp_path / "a.pt", init=tmp_path / "start.pt")
    fresh = ct.train(replace(quiet, seed=5), data, tmp_path / "b.pt")
    head = start.head.weight.detach()
    assert torch.allclose(resumed.head.weight.detach(), head, atol=1e-6)
    assert not torch.allclose(fresh.head.weight.detach(), head, atol=1e-3)


def _trained_looking(seed: int) -> ct.CoreNet:
    """A net whose BatchNorms are not the identity (as after training), in eval mode."""
    gen = torch.Generator().manual_seed(seed)
    net = ct.CoreNet()
    with torch.no_grad():
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.weight.copy_(torch.rand(m.weight.shape, generator=gen) + 0.5)
                m.bias.copy_(torch.randn(m.bias.shape, generator=gen) * 0.1)
                m.running_mean.copy_(torch.randn(m.running_mean.shape, generator=gen) * 0.1)
                m.running_var.copy_(torch.rand(m.running_var.shape, generator=gen) + 0.5)
    return net.eval()


def test_an_exported_net_comes_back_for_fine_tuning_with_its_batchnorms_frozen(
        tiny_data, tmp_path):
    from agari.models.cores_init import load_onnx_cores

    path = ct.export(_trained_looking(3), tmp_path / "trained.onnx")
    back = ct.CoreNet()
    assert load_onnx_cores(back, path) < 1e-3
    recipe, data = tiny_data
    tuned = ct.train(ct.Recipe(steps=2, batch=2, crop=128, threads=1, holdout=0), data,
                     tmp_path / "tuned.pt", init=path)
    # Frozen: the identity statistics the folded weights need are never replaced.
    bn = tuned.e1[1]
    assert torch.all(bn.running_mean == 0) and torch.all(bn.running_var == 1 - bn.eps)
    assert not torch.allclose(tuned.head.weight, back.head.weight)


def test_the_rewritten_shipped_net_is_refused_as_a_starting_point(tmp_path):
    from pathlib import Path

    from agari.engine.errors import ModelError
    from agari.models.cores_init import load_onnx_cores

    shipped = Path(ct.__file__).with_name("tile_cores.onnx")
    with pytest.raises(ModelError, match="plain export"):
        load_onnx_cores(ct.CoreNet(), shipped)
