"""Static int8 quantisation of an exported tile classifier (issue #7's latency).

The classifier reads several hundred crops a photo in `agari photo`; with its convolutions in
int8 it reads 2.6 times as many crops a second on onnxruntime's CPU kernels. The shipped model
stays in float: through `agari photo` the int8 file read one hand in 200 fewer exactly (figures
in models/MODEL_CARD.md, "Speed"); this is the tool that makes and measures such a file.

Only the convolutions are quantised, and not the first: its input is the normalised image
(three channels, little to gain, the most sensitive layer). The pooled head stays in float:
the embedding is an output of its own (per-set calibration, #10), and int8 over the ReLU'd
range the quantiser would give it clips its negative half.

Weights use 7 bits (``reduce_range``): on x86 CPUs without VNNI, onnxruntime multiplies
uint8 activations by int8 weights with an instruction whose pairwise sums can saturate with
8-bit weights, not with 7 (this machine has VNNI, so that case is not measured here).

    python -m agari.models.quantize FLOAT.onnx OUT.onnx \\
        [--photos ../shared/data/real-dev/riichi-tray --photo-names riichi-tray]

Calibration crops: the recipe's synthetic generator at `CALIBRATION_SEED` (never a training
or validation seed) and, where given, jittered crops of the tray photos in the classifier's
training split (never its held-out roots).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from agari.engine.errors import ModelError

CALIBRATION_SEED = 4242
"""Seed of the synthetic calibration crops (training uses the recipe's seed, validation it
plus 7919)."""

SYNTH_PER_CLASS = 12
PHOTOS = 60
"""Training-split tray photos whose crops join the calibration set (4 `none` crops each)."""

MIN_AGREEMENT = 0.99
"""Top-1 agreement with the float model on the calibration crops below this fails."""

POOLING = ("ReduceMean", "GlobalAveragePool")


def float_only(graph: object) -> list[str]:
    """Names of the nodes left in float: the first convolution and everything from the
    global pooling on (the head). The graph's nodes are in topological order."""
    names = [n.name for n in graph.node]
    convs = [n.name for n in graph.node if n.op_type == "Conv"]
    pools = [i for i, n in enumerate(graph.node) if n.op_type in POOLING]
    if not convs or not pools:
        raise ModelError("not a tile classifier graph: no convolution or no global pooling")
    return convs[:1] + names[pools[0]:]


def quantize_classifier(src: Path, out: Path, tensors: Sequence[np.ndarray], *,
                        input_name: str = "image", batch: int = 64) -> Path:
    """Write ``src`` (a float classifier) to ``out`` with int8 convolutions calibrated on
    ``tensors`` (model inputs, float32 ``(N, 3, H, W)`` arrays), its ``agari.*`` metadata
    kept and ``agari.quantized`` added.

    Raises:
        ModelError: the result's top-1 disagrees with the float model on more than
            1 - `MIN_AGREEMENT` of the calibration inputs.
    """
    import onnx
    import onnxruntime as ort
    from onnxruntime.quantization import (
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    x = np.concatenate([np.asarray(t, np.float32) for t in tensors])

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self._it = iter([{input_name: x[i:i + batch]} for i in range(0, len(x), batch)])

        def get_next(self) -> dict | None:
            return next(self._it, None)

    src, out = Path(src), Path(out)
    with tempfile.TemporaryDirectory() as tmp:
        pre = Path(tmp) / "pre.onnx"
        # Symbolic shape inference (it needs sympy) adds nothing for a net of fixed shapes.
        quant_pre_process(str(src), str(pre), skip_symbolic_shape=True)
        quantize_static(str(pre), str(out), Reader(), quant_format=QuantFormat.QDQ,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        per_channel=True, reduce_range=True,
                        nodes_to_exclude=float_only(onnx.load(str(pre)).graph))
    model, source = onnx.load(str(out)), onnx.load(str(src))
    del model.metadata_props[:]
    for prop in source.metadata_props:
        model.metadata_props.add(key=prop.key, value=prop.value)
    digest = hashlib.sha256(src.read_bytes()).hexdigest()[:12]
    model.metadata_props.add(key="agari.quantized", value=(
        f"int8 convolutions (static, QDQ, per channel, 7-bit weights) of {src.name}@{digest}, "
        f"calibrated on {len(x)} crops"))
    onnx.save(model, str(out))

    def top1(path: Path) -> np.ndarray:
        session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        return np.concatenate([session.run(None, {input_name: x[i:i + batch]})[0].argmax(1)
                               for i in range(0, len(x), batch)])

    agreement = float((top1(src) == top1(out)).mean())
    if agreement < MIN_AGREEMENT:
        raise ModelError(f"{out}: int8 model agrees with {src.name} on only "
                         f"{agreement:.1%} of the calibration crops")
    return out


def calibration_tensors(model: Path, photos: Path | None = None,
                        photo_names: str | None = None) -> list[np.ndarray]:
    """The calibration inputs for ``model`` (see the module's docstring), as the model
    reads them."""
    from agari.models.classifier import TileClassifier
    from agari.models.dataset import ClassMix, RealPhoto, photo_arrays, synth_arrays
    from agari.models.realdata import CropSpec
    from agari.models.recipe import split_photos
    from agari.models.synth import SynthConfig

    clf = TileClassifier.load(model)
    spec = CropSpec(size=clf.input_size, margin=clf.spec.crop_margin)
    parts = []
    if photos is not None:
        from agari.datasets.formats import open_dataset

        ds = open_dataset(Path(photos), names=photo_names)
        real = [RealPhoto(ds.image_path(a), a.tiles) for a in ds.annotations()]
        train, _ = split_photos(real)
        parts.append(photo_arrays(train[:PHOTOS], spec, seed=3, negatives=4)[0])
    parts.append(synth_arrays(ClassMix(SYNTH_PER_CLASS), seed=CALIBRATION_SEED,
                              config=SynthConfig(crop_size=spec.size, margin=spec.margin))[0])
    crops = np.concatenate(parts)
    np.random.default_rng(0).shuffle(crops)
    return [clf.tensor(clf.pixels(crops))]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("src", type=Path, help="float classifier .onnx (as exported)")
    p.add_argument("out", type=Path, help="int8 .onnx to write")
    p.add_argument("--photos", type=Path, help="YOLO folder of tray photos (training split used)")
    p.add_argument("--photo-names", help="its class order (e.g. riichi-tray)")
    args = p.parse_args(argv)
    try:
        tensors = calibration_tensors(args.src, args.photos, args.photo_names)
        quantize_classifier(args.src, args.out, tensors)
    except ModelError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
