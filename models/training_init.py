"""Starting a `TileNet` from an exported classifier (fine-tuning; torch, ``agari[train]``).

No torch checkpoint of a shipped model is kept: its ONNX file is the only copy of its
weights. At export torch folds each BatchNorm into the convolution before it, so the file
holds one weight and one bias per convolution and no BatchNorm statistics. `load_onnx_weights`
puts them back: the conv weight as it is, and each BatchNorm made the identity plus the
folded bias (scale 1, mean 0, variance ``1 - eps`` so the division is exactly 1). Such a net
must be fine-tuned with its BatchNorms in eval mode (`freeze_batchnorm`): batch statistics
would replace the identity with something the folded weights were never trained for.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import torch
from agari.engine.errors import ModelError
from agari.engine.tiles import CLASS_NAMES
from agari.models.net import TileNet
from agari.models.spec import EMBEDDING_NAME, INPUT_NAME, LOGITS_NAME, ModelSpec
from torch import nn

MATCH_TOLERANCE = 1e-4
"""Largest logit difference allowed between the loaded torch net and the ONNX file."""


def file_digest(path: Path) -> str:
    """The first 12 hex digits of the file's sha256 (recorded in a fine-tuned model)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]


def _conv_blocks(model: TileNet) -> list[tuple[nn.Conv2d, nn.BatchNorm2d]]:
    return [(block[0], block[1]) for block in model.features]


def _initializers(proto) -> dict[str, np.ndarray]:
    from onnx import numpy_helper

    return {t.name: numpy_helper.to_array(t) for t in proto.graph.initializer}


def _set(param: torch.Tensor, value: np.ndarray, what: str) -> None:
    if tuple(param.shape) != value.shape:
        raise ModelError(f"{what}: the file has shape {value.shape}, the net "
                         f"{tuple(param.shape)}; not a TileNet of this configuration")
    with torch.no_grad():
        param.copy_(torch.from_numpy(np.array(value, np.float32)))


def load_onnx_weights(model: TileNet, path: Path) -> ModelSpec:
    """Copy the weights of an exported `TileNet` (BatchNorm folded) into ``model``.

    Args:
        model: a `TileNet` of the file's configuration (class count, stages, sizes).
        path: the ONNX file `agari.models.export.export_onnx` wrote.

    Returns:
        The file's `ModelSpec` (class names, input size, normalisation).

    Raises:
        ModelError: unreadable file, unfolded BatchNorm, or layers that do not fit ``model``.
    """
    import onnx

    try:
        proto = onnx.load(str(path))
    except Exception as exc:  # a missing file, or protobuf's DecodeError for a damaged one
        raise ModelError(f"cannot read the model to start from, {path}: {exc}") from None
    spec = ModelSpec.from_metadata({p.key: p.value for p in proto.metadata_props},
                                   source=str(path))
    nodes = proto.graph.node
    if any(n.op_type == "BatchNormalization" for n in nodes):
        raise ModelError(f"{path}: BatchNorm is not folded into the convolutions; "
                         "only files written by agari's export can be started from")
    weights = _initializers(proto)
    convs = [n for n in nodes if n.op_type == "Conv"]
    gemms = [n for n in nodes if n.op_type == "Gemm"]
    blocks = _conv_blocks(model)
    if len(convs) != len(blocks) or len(gemms) != 2:
        raise ModelError(f"{path}: {len(convs)} convolutions and {len(gemms)} dense layers, "
                         f"the net has {len(blocks)} and 2; not a TileNet of this configuration")
    for i, (node, (conv, bn)) in enumerate(zip(convs, blocks, strict=True)):
        if len(node.input) < 3:
            raise ModelError(f"{path}: convolution {i} has no bias (BatchNorm not folded)")
        _set(conv.weight, weights[node.input[1]], f"convolution {i}")
        _set(bn.bias, weights[node.input[2]], f"convolution {i} bias")
        with torch.no_grad():
            bn.weight.fill_(1.0)
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
    for node, layer in zip(gemms, (model.embed, model.classify), strict=True):
        attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
        w = weights[node.input[1]]
        _set(layer.weight, w if attrs.get("transB", 0) else w.T, node.name)
        _set(layer.bias, weights[node.input[2]], f"{node.name} bias")
    return spec


def freeze_batchnorm(model: nn.Module) -> None:
    """Put every BatchNorm in eval mode (running statistics used and never updated).

    Call after each ``model.train()``; the affine scale and shift stay trainable.
    """
    for m in model.modules():
        if isinstance(m, nn.modules.batchnorm._BatchNorm):
            m.eval()


@torch.no_grad()
def onnx_mismatch(model: TileNet, path: Path, x: torch.Tensor) -> float:
    """Largest absolute difference of logits and embedding, torch ``model`` vs the file,
    on normalised crops ``x float32 (N, 3, H, W)`` (``model`` is put in eval mode)."""
    import onnxruntime as ort

    model.eval()
    ref_logits, ref_emb = (t.numpy() for t in model(x))
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    logits, emb = session.run([LOGITS_NAME, EMBEDDING_NAME], {INPUT_NAME: x.numpy()})
    return float(max(np.abs(logits - ref_logits).max(), np.abs(emb - ref_emb).max()))


def start_from(model: TileNet, path: Path, x: torch.Tensor, *,
               tolerance: float = MATCH_TOLERANCE) -> float:
    """`load_onnx_weights`, then check the net reproduces the file on ``x``.

    Returns:
        The largest difference seen (logits and embedding).

    Raises:
        ModelError: the difference exceeds ``tolerance``, or the file's input size or
            class list is not that of ``x`` and `agari.engine.tiles.CLASS_NAMES`.
    """
    spec = load_onnx_weights(model, path)
    if tuple(x.shape[2:]) != spec.input_size or spec.class_names != CLASS_NAMES:
        raise ModelError(f"{path}: input {spec.input_size} and classes {spec.class_names[:3]}… "
                         f"do not fit crops {tuple(x.shape[2:])} and agari's class list")
    diff = onnx_mismatch(model, path, x)
    if diff > tolerance:
        raise ModelError(f"the net loaded from {path} differs from the file by {diff:.2e} "
                         f"(over {tolerance:.0e}); not starting from it")
    return diff
