"""Int8 quantisation of a classifier graph (`agari.models.quantize`), on a small graph of
the same shape as `TileNet`'s export: convolutions, global pooling, embedding, logits."""
import numpy as np
import onnx
import onnxruntime as ort
import pytest
from agari.engine.errors import ModelError
from agari.models.quantize import float_only, quantize_classifier
from onnx import TensorProto, helper, numpy_helper


def tiny_classifier(path, rng):
    def init(name, *shape):
        return numpy_helper.from_array(rng.normal(0, 0.3, shape).astype(np.float32), name)

    nodes = [
        helper.make_node("Conv", ["image", "w0", "b0"], ["c0"], name="conv0", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c0"], ["r0"], name="relu0"),
        helper.make_node("Conv", ["r0", "w1", "b1"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], name="conv2", pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
        helper.make_node("ReduceMean", ["r2"], ["pooled"], name="pool", axes=[2, 3], keepdims=0),
        helper.make_node("Gemm", ["pooled", "we", "be"], ["embedding"], name="embed", transB=1),
        helper.make_node("Relu", ["embedding"], ["re"], name="relu_e"),
        helper.make_node("Gemm", ["re", "wl", "bl"], ["logits"], name="classify", transB=1),
    ]
    inits = [init("w0", 8, 3, 3, 3), init("b0", 8), init("w1", 16, 8, 3, 3), init("b1", 16),
             init("w2", 16, 16, 3, 3), init("b2", 16), init("we", 6, 16), init("be", 6),
             init("wl", 4, 6), init("bl", 4)]
    graph = helper.make_graph(
        nodes, "tiny",
        [helper.make_tensor_value_info("image", TensorProto.FLOAT, ["n", 3, 16, 12])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["n", 4]),
         helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["n", 6])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    model.metadata_props.add(key="agari.class_names", value='["a", "b", "c", "d"]')
    onnx.save(model, str(path))
    return model


def run(path, x):
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return session.run(None, {"image": x})


def tiny_classifier_model():
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as tmp:
        return tiny_classifier(Path(tmp) / "m.onnx", np.random.default_rng(0))


def test_first_convolution_and_head_stay_float():
    model = tiny_classifier_model()
    assert float_only(model.graph) == ["conv0", "pool", "embed", "relu_e", "classify"]


def test_a_graph_without_pooling_is_refused():
    model = tiny_classifier_model()
    for node in model.graph.node:
        if node.op_type == "ReduceMean":
            node.op_type = "ReduceMax"
    with pytest.raises(ModelError, match="no global pooling"):
        float_only(model.graph)


def test_quantized_convolutions_keep_outputs_and_metadata(tmp_path):
    rng = np.random.default_rng(1)
    src, out = tmp_path / "float.onnx", tmp_path / "int8.onnx"
    tiny_classifier(src, rng)
    x = rng.normal(0, 1, (256, 3, 16, 12)).astype(np.float32)
    quantize_classifier(src, out, [x[:192]])

    q = onnx.load(str(out))
    fed_by_dq = {n.name for n in q.graph.node if n.op_type in ("Conv", "Gemm")
                 if any(i.endswith("DequantizeLinear_Output") for i in n.input)}
    assert "conv1" in fed_by_dq and "conv2" in fed_by_dq
    assert not fed_by_dq & {"conv0", "embed", "classify"}
    meta = {p.key: p.value for p in q.metadata_props}
    assert meta["agari.class_names"] == '["a", "b", "c", "d"]'
    assert "int8 convolutions" in meta["agari.quantized"] and "192 crops" in meta["agari.quantized"]

    (logits_f, emb_f), (logits_q, emb_q) = run(src, x[192:]), run(out, x[192:])
    rel = np.linalg.norm(emb_q - emb_f, axis=1) / np.linalg.norm(emb_f, axis=1)
    assert np.median(rel) < 0.05  # the embedding's negative half survives (no int8 clip)
    assert (emb_q < 0).any()
    assert (logits_f.argmax(1) == logits_q.argmax(1)).mean() >= 0.9
