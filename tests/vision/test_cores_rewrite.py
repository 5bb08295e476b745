"""The core net's rewritten graph (`bench/cores_rewrite.py`, the form shipped) reads the same
as the graph training exports: same probabilities and offsets, same quads."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest
from agari.vision.cores import CoreConfig, _run, default_path, find_cores, load_session

REWRITE = Path(__file__).resolve().parents[2] / "bench" / "cores_rewrite.py"


def _rewrite_module(monkeypatch):
    spec = importlib.util.spec_from_file_location("cores_rewrite", REWRITE)
    mod = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "cores_rewrite", mod)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """A core net as `agari train cores` exports it (random weights, batch norms with
    non-trivial statistics so that folding them matters)."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from agari.models import cores_train as ct

    torch.manual_seed(0)
    net = ct.CoreNet()
    for m in net.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.uniform_(-0.2, 0.2)
            m.running_var.uniform_(0.5, 2.0)
    return ct.export(net.eval(), tmp_path_factory.mktemp("cores") / "trained.onnx")


@pytest.mark.parametrize("split_decoder", [False, True])
def test_the_rewritten_net_reads_like_the_trained_one(trained, tmp_path, monkeypatch,
                                                      split_decoder):
    import onnx

    mod = _rewrite_module(monkeypatch)
    path = tmp_path / "rewritten.onnx"
    onnx.save(mod.rewrite(onnx.load(str(trained)), split_decoder=split_decoder), str(path))
    old, new = load_session(str(trained), 1), load_session(str(path), 1)
    assert [o.name for o in new.get_outputs()] == ["logits", "corners"]
    image = np.random.default_rng(1).integers(0, 256, (150, 230, 3), dtype=np.uint8)
    (p_old, off_old), f_old = _run(image, 120, None, 1, old)
    (p_new, off_new), f_new = _run(image, 120, None, 1, new)
    assert f_old == f_new and p_new.shape == (3, 40, 60) and off_new.shape == (8, 40, 60)
    np.testing.assert_allclose(p_new, p_old, atol=1e-5)
    np.testing.assert_allclose(off_new, off_old, atol=1e-4)
    cfg = CoreConfig(threshold=0.3, min_score=0.3, zoom_below=None)
    a, b = find_cores(image, cfg, session=old), find_cores(image, cfg, session=new)
    assert a and [c.face_down for c in a] == [c.face_down for c in b]
    for x, y in zip(a, b, strict=True):
        np.testing.assert_allclose(x.quad, y.quad, atol=1e-2)


def test_a_graph_that_is_not_the_core_net_is_refused(tmp_path, monkeypatch):
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    mod = _rewrite_module(monkeypatch)
    graph = helper.make_graph(
        [helper.make_node("Relu", ["image"], ["cores"])], "g",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("cores", TensorProto.FLOAT, [1, 3, 8, 8])])
    with pytest.raises(ValueError, match="not the core net"):
        mod.rewrite(helper.make_model(graph))
    assert onnx  # imported for the helper


def test_the_shipped_net_is_the_rewritten_form():
    session = load_session(str(default_path()), 1)
    assert [i.name for i in session.get_inputs()] == ["image"]
    assert [o.name for o in session.get_outputs()] == ["logits", "corners"]
    assert default_path().stat().st_size <= 5 * 1024 * 1024
