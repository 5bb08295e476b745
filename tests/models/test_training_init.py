"""Fine-tuning from an exported classifier: the ONNX weights load back into `TileNet`
(BatchNorm folded at export), the loaded net reproduces the file, frozen BatchNorms keep
their statistics while training, and a seeded fine-tune is reproducible."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from agari.cli import app

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from agari.engine.errors import ModelError  # noqa: E402
from agari.engine.tiles import CLASS_NAMES  # noqa: E402
from agari.models.export import export_onnx  # noqa: E402
from agari.models.net import TileNet  # noqa: E402
from agari.models.training import TrainConfig, model_spec, to_tensor, train  # noqa: E402
from agari.models.training_init import (  # noqa: E402
    load_onnx_weights,
    onnx_mismatch,
    start_from,
)

SIZE = (64, 48)


def _trained_looking_net(seed: int = 0) -> TileNet:
    """A `TileNet` whose BatchNorms are far from the identity (as after training)."""
    torch.manual_seed(seed)
    net = TileNet(len(CLASS_NAMES))
    with torch.no_grad():
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.5, 2.0)
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.3, 0.3)
    return net.eval()


def _crops(n: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 256, (n, *SIZE, 3), dtype=np.uint8)


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    net = _trained_looking_net()
    path = tmp_path_factory.mktemp("init") / "start.onnx"
    export_onnx(net, model_spec(SIZE, 0.06, {"seed": 0}), path)
    return net, path


def test_the_loaded_net_reproduces_the_file_and_the_net_exported(exported):
    net, path = exported
    loaded = TileNet(len(CLASS_NAMES))
    x = to_tensor(_crops(6))
    assert start_from(loaded, path, x) < 1e-4
    with torch.no_grad():
        a, _ = net(x)
        b, _ = loaded.eval()(x)
    assert torch.allclose(a, b, atol=1e-4)
    # A fresh net is nowhere near the file: the check can fail.
    assert onnx_mismatch(TileNet(len(CLASS_NAMES)), path, x) > 1e-2


def test_frozen_batchnorm_fine_tune_keeps_statistics_and_is_seeded(exported):
    _, path = exported
    data = (_crops(16, seed=1), np.arange(16, dtype=np.int64) % len(CLASS_NAMES))
    config = TrainConfig(epochs=1, batch_size=8, lr=1e-3, threads=1, freeze_bn=True)
    runs = []
    for _ in range(2):
        net = TileNet(len(CLASS_NAMES))
        load_onnx_weights(net, path)
        before = {k: v.clone() for k, v in net.state_dict().items()}
        runs.append(train(data, config=config, init=net))
        after = net.state_dict()
        for name in before:
            if "running_" in name:
                assert torch.equal(before[name], after[name]), name
        assert not torch.equal(before["features.0.0.weight"], after["features.0.0.weight"])
    for a, b in zip(runs[0].state_dict().values(), runs[1].state_dict().values(), strict=True):
        assert torch.equal(a, b)


@pytest.mark.parametrize("make, message", [
    (lambda tmp, toy: tmp / "missing.onnx", "cannot read"),
    (lambda tmp, toy: toy, "convolutions"),
])
def test_files_that_are_not_a_tilenet_export_are_refused(make, message, tmp_path, toy_model):
    with pytest.raises(ModelError, match=message):
        load_onnx_weights(TileNet(len(CLASS_NAMES)), make(tmp_path, toy_model))


def test_train_classifier_with_a_missing_init_is_a_one_line_error(tmp_path):
    out = tmp_path / "m.onnx"
    result = CliRunner().invoke(app, ["train", "classifier", "--out", str(out), "--init",
                                      str(tmp_path / "nope.onnx"), "--json"])
    assert result.exit_code == 1
    err = json.loads(result.stdout)["error"]
    assert err["code"] == "model_error" and "nope.onnx" in err["message"]
    assert not out.exists()


@pytest.mark.slow
def test_tiny_fine_tune_run_records_where_it_started(exported, tmp_path):
    from agari.models import TileClassifier

    _, start = exported
    out = tmp_path / "m.onnx"
    result = CliRunner().invoke(app, [
        "train", "classifier", "--out", str(out), "--init", str(start), "--per-class", "3",
        "--epochs", "1", "--scenes", "0", "--workers", "1", "--threads", "1", "--json"])
    assert result.exit_code == 0, result.output
    extra = dict(TileClassifier.load(out).spec.extra)
    assert extra["init"].startswith("start.onnx@") and float(extra["lr"]) == 3e-4
