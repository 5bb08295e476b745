"""Starting a `CoreNet` from an exported core net (fine-tuning; torch, ``agari[train]``).

As for the classifier (`agari.models.training_init`), no torch checkpoint of a shipped net
is kept and torch folded each BatchNorm into the convolution before it at export. The
convolutions come back in graph order, which is the net's own order (encoder, decoder,
head); each BatchNorm becomes the identity plus the folded bias, so the net must be
trained with its BatchNorms frozen (`agari.models.training_init.freeze_batchnorm`).

Only a plain export (`agari.models.cores_train.export`: one output, ``cores``) can be
read: the shipped file is that export rewritten for speed (`bench/cores_rewrite.py`), whose
convolutions no longer match the net's layers one for one.
"""

from __future__ import annotations

from pathlib import Path

import torch
from agari.engine.errors import ModelError
from agari.models.cores_train import onnx_mismatch
from agari.models.training_init import _initializers, _set
from torch import nn

MATCH_TOLERANCE = 1e-3
"""Largest output difference allowed between the loaded net and the file (0..255 input)."""


def _layers(net: nn.Module) -> list[tuple[nn.Conv2d, nn.BatchNorm2d | None]]:
    """Every convolution in forward order, with the BatchNorm that follows it (None: head)."""
    mods = list(net.modules())
    pairs = []
    for i, m in enumerate(mods):
        if isinstance(m, nn.Conv2d):
            after = mods[i + 1] if i + 1 < len(mods) else None
            pairs.append((m, after if isinstance(after, nn.BatchNorm2d) else None))
    return pairs


def load_onnx_cores(net: nn.Module, path: Path) -> float:
    """Copy an exported core net's weights into ``net`` and check the two agree.

    Returns:
        The largest difference of the outputs on a random image.

    Raises:
        ModelError: unreadable file, a rewritten or foreign graph, or outputs that differ.
    """
    import onnx

    try:
        proto = onnx.load(str(path))
    except Exception as exc:  # a missing file, or protobuf's DecodeError for a damaged one
        raise ModelError(f"cannot read the net to start from, {path}: {exc}") from None
    outputs = [o.name for o in proto.graph.output]
    convs = [n for n in proto.graph.node if n.op_type == "Conv"]
    layers = _layers(net)
    if outputs != ["cores"] or len(convs) != len(layers):
        raise ModelError(f"{path}: outputs {outputs} and {len(convs)} convolutions; only a "
                         f"plain export of this net (output 'cores', {len(layers)} "
                         "convolutions) can be started from, not the rewritten shipped file")
    weights = _initializers(proto)
    for i, (node, (conv, bn)) in enumerate(zip(convs, layers, strict=True)):
        if len(node.input) < 3:
            raise ModelError(f"{path}: convolution {i} has no bias (BatchNorm not folded)")
        _set(conv.weight, weights[node.input[1]], f"convolution {i}")
        bias = weights[node.input[2]]
        if bn is None:
            _set(conv.bias, bias, f"convolution {i} bias")
            continue
        _set(bn.bias, bias, f"convolution {i} bias")
        with torch.no_grad():
            bn.weight.fill_(1.0)
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
    diff = onnx_mismatch(net, path)
    if diff > MATCH_TOLERANCE:
        raise ModelError(f"the net loaded from {path} differs from the file by {diff:.2e}; "
                         "not starting from it")
    return diff
