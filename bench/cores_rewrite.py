"""Rewrite the trained core net into a cheaper, equivalent ONNX graph (`models/tile_cores.onnx`).

The exported net (`agari.models.cores_train.export`) computes

    x = image / 255 - 0.5                      (Div, Sub)
    a = e1(x); b = e2(a); c = e3(b)
    d = relu(conv1x1(cat[resize2x(c), b])) -> block
    e = relu(conv1x1(cat[resize2x(d), a]))
    out = cat[softmax(head(e)[:3]), head(e)[3:]]

and onnxruntime spends about a third of its time outside the convolutions (the softmax
over the channel axis alone ~11 %, the concatenations ~10 %). This script rewrites it,
exactly up to float rounding:

* the division is folded into the first convolution's weights (``W / 255``); the
  subtraction of 127.5 stays (folding it into the bias would be wrong at the borders,
  where the convolution pads with zeros);
* a 1×1 convolution over a concatenation is the sum of two 1×1 convolutions, one per
  part, and a 1×1 convolution commutes with bilinear 2× resizing (a per-pixel affine
  map, the resize's weights summing to one), so the upsampled branch is convolved
  *before* it is resized: at a quarter of the pixels, and fewer channels to resize
  (64 -> 32 and 32 -> 24); no concatenation is left;
* the head is split into a class convolution (3 logits) and a corner convolution (8
  offsets), given as two outputs ``logits`` and ``corners``; the softmax over the three
  classes is left to `agari.vision.cores` (numpy), which reads either form.

Usage::

    python bench/cores_rewrite.py TRAINED.onnx OUT.onnx

``TRAINED.onnx`` is the file `agari train cores` writes (outputs ``cores``). The script
checks the rewritten graph against the original on random inputs and a render and
refuses to write it when they disagree by more than `TOLERANCE`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

TOLERANCE = 1e-3
"""Largest allowed difference in a probability or a corner offset (CORNER_NORM units)."""


def _consts(model) -> dict[str, np.ndarray]:
    from onnx import numpy_helper

    found = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    for n in model.graph.node:
        if n.op_type == "Constant":
            found[n.output[0]] = numpy_helper.to_array(n.attribute[0].t)
    return found


def _attrs(node) -> dict:
    from onnx import helper

    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


ONE_BY_ONE = {"kernel_shape": [1, 1], "pads": [0, 0, 0, 0], "strides": [1, 1]}


class _Rewriter:
    """Walks the trained graph in order and writes the cheaper one (`rewrite`)."""

    def __init__(self, model, split_decoder: bool) -> None:
        self.model, self.split = model, split_decoder
        self.k = _consts(model)
        self.nodes = [n for n in model.graph.node if n.op_type != "Constant"]
        self.producer = {o: n for n in self.nodes for o in n.output}
        self.head = next(n for n in reversed(self.nodes) if n.op_type == "Conv")
        self.inits: dict[str, np.ndarray] = {}
        self.out: list = []
        self.name: dict[str, str] = {}  # trained graph's tensor -> rewritten graph's

    def node(self, op: str, ins: list[str], out: str, **attrs) -> str:
        from onnx import helper

        self.out.append(helper.make_node(op, ins, [out], name=out, **attrs))
        return out

    def conv(self, out: str, x: str, w: np.ndarray, b: np.ndarray | None, attrs: dict) -> str:
        self.inits[out + ".w"] = w.astype(np.float32)
        ins = [x, out + ".w"]
        if b is not None:
            self.inits[out + ".b"] = b.astype(np.float32)
            ins.append(out + ".b")
        return self.node("Conv", ins, out, **attrs)

    def walk(self) -> None:
        for n in self.nodes:
            if n is self.head:
                self.write_head(n)
                return  # what follows is the softmax, left to agari.vision.cores
            op, src = n.op_type, self.name.get(n.input[0], n.input[0])
            if op == "Div":
                if float(self.k[n.input[1]]) != 255.0:
                    raise ValueError("input scaling is not image / 255 - 0.5")
                self.name[n.output[0]] = src  # folded into the first convolution
            elif op == "Sub":
                if float(self.k[n.input[1]]) != 0.5:
                    raise ValueError("input scaling is not image / 255 - 0.5")
                self.inits["centre"] = np.array(127.5, np.float32)
                self.name[n.output[0]] = self.node("Sub", [src, "centre"], "centred")
            elif op == "Conv" and self.split and self.producer[n.input[0]].op_type == "Concat":
                self.name[n.output[0]] = self.decoder_step(n)
            elif op == "Conv":
                w = self.k[n.input[1]]
                if src == "centred":
                    w = w / np.float32(255.0)
                self.name[n.output[0]] = self.conv(n.output[0], src, w, self.k[n.input[2]],
                                                   _attrs(n))
            elif op in ("Resize", "Concat") and self.split:
                pass  # done by decoder_step
            elif op == "Resize":
                self.inits["scale2x"] = self.k[n.input[2]].astype(np.float32)
                self.name[n.output[0]] = self.node(op, [src, "", "scale2x"], n.output[0],
                                                   **_attrs(n))
            elif op in ("Relu", "Concat"):
                self.name[n.output[0]] = self.node(op, [self.name[i] for i in n.input],
                                                   n.output[0], **_attrs(n))
            else:
                raise ValueError(f"unexpected {op} in the core net")

    def decoder_step(self, conv) -> str:
        """conv1x1(cat[resize(low), skip]) as resize(conv1x1(low)) + conv1x1(skip)."""
        up, skip = self.producer[conv.input[0]].input
        resize = self.producer[up]
        skip_channels = self.k[self.producer[self.producer[skip].input[0]].input[1]].shape[0]
        w, b = self.k[conv.input[1]], self.k[conv.input[2]]
        n_low = w.shape[1] - skip_channels
        tag = conv.output[0]
        low = self.conv(tag + ".low", self.name[resize.input[0]], w[:, :n_low], None,
                        ONE_BY_ONE)
        self.inits["scale2x"] = self.k[resize.input[2]].astype(np.float32)
        low = self.node("Resize", [low, "", "scale2x"], tag + ".up", **_attrs(resize))
        high = self.conv(tag + ".skip", self.name[skip], w[:, n_low:], b, ONE_BY_ONE)
        return self.node("Add", [low, high], tag)

    def write_head(self, n) -> None:
        w, b = self.k[n.input[1]], self.k[n.input[2]]
        self.conv("head", self.name[n.input[0]], w, b, ONE_BY_ONE)
        self.inits["split"] = np.array([3, w.shape[0] - 3], np.int64)
        from onnx import helper

        self.out.append(helper.make_node("Split", ["head", "split"], ["logits", "corners"],
                                         name="split", axis=1))


def rewrite(model, *, split_decoder: bool = True):
    """The rewritten graph (an ``onnx.ModelProto``) of a trained core net; with
    ``split_decoder`` each decoder concatenation becomes two convolutions summed.

    Raises:
        ValueError: the graph is not the core net's.
    """
    import onnx
    from onnx import helper, numpy_helper

    ops = [n.op_type for n in model.graph.node]
    if (ops.count("Conv"), ops.count("Resize"), ops.count("Concat")) != (11, 2, 3):
        raise ValueError("not the core net's graph (11 Conv, 2 Resize, 3 Concat expected)")
    r = _Rewriter(model, split_decoder)
    r.walk()
    image = helper.make_tensor_value_info("image", onnx.TensorProto.FLOAT, ["n", 3, "h", "w"])
    outs = [helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, ["n", c, "h2", "w2"])
            for name, c in (("logits", 3), ("corners", 8))]
    graph = helper.make_graph(r.out, "tile_cores", [image], outs,
                              [numpy_helper.from_array(v, k) for k, v in r.inits.items()])
    out = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                            producer_name="agari bench/cores_rewrite.py")
    out.ir_version = model.ir_version
    onnx.checker.check_model(out)
    return out


def compare(old: Path, new: Path, images: list[np.ndarray]) -> float:
    """Largest difference between the two nets' outputs (probabilities and offsets)."""
    import onnxruntime as ort
    from agari.vision.cores import net_input

    a = ort.InferenceSession(str(old), providers=["CPUExecutionProvider"])
    b = ort.InferenceSession(str(new), providers=["CPUExecutionProvider"])
    worst = 0.0
    for img in images:
        x, _ = net_input(img, 960) if img.ndim == 3 else (img, None)
        want = a.run(None, {"image": x})[0]
        logits, corners = b.run(None, {"image": x})
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        got = np.concatenate([e / e.sum(axis=1, keepdims=True), corners], axis=1)
        worst = max(worst, float(np.abs(got - want).max()))
    return worst


def main(argv: list[str] | None = None) -> int:
    import onnx

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("trained", type=Path)
    p.add_argument("out", type=Path)
    p.add_argument("--keep-concat", action="store_true",
                   help="keep the decoder's concatenations (about 2 ms slower a 960 px reading)")
    args = p.parse_args(argv)
    out = rewrite(onnx.load(str(args.trained)), split_decoder=not args.keep_concat)
    tmp = args.out.with_suffix(".tmp.onnx")
    onnx.save(out, str(tmp))
    rng = np.random.default_rng(0)
    images = [rng.uniform(0, 255, (1, 3, 136, 240)).astype(np.float32),
              rng.integers(0, 256, (720, 1280, 3), dtype=np.uint8)]
    try:
        from agari.datasets.scene import SceneConfig, render_scene

        images.append(render_scene(910000, SceneConfig(width=1920, height=1080))[0])
    except Exception as exc:  # the renderer needs the tile art; random inputs still check
        print(f"no render to compare on: {exc}", file=sys.stderr)
    worst = compare(args.trained, tmp, images)
    print(f"largest difference from the trained graph: {worst:.2e}")
    if worst > TOLERANCE:
        tmp.unlink()
        print("rewritten graph disagrees; not written", file=sys.stderr)
        return 1
    tmp.replace(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
