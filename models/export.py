"""Exporting a trained `TileNet` to the shipped ONNX file, metadata included.

The file carries everything inference needs (`ModelSpec` in ``agari.*``
metadata), two outputs (``logits``, ``embedding``) and a dynamic batch axis.
Export checks the result with onnxruntime against torch before returning.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
from agari.engine.errors import ModelError
from agari.models.net import TileNet
from agari.models.spec import EMBEDDING_NAME, INPUT_NAME, LOGITS_NAME, ModelSpec

MAX_MODEL_BYTES = 5 * 1024 * 1024
"""The shipped model must stay under 5 MB."""

OPSET = 17


def export_onnx(model: TileNet, spec: ModelSpec, path: Path) -> Path:
    """Write ``model`` to ``path`` as ONNX with ``spec`` in its metadata.

    Raises:
        ModelError: the file is larger than `MAX_MODEL_BYTES` or its outputs
            disagree with torch's.
    """
    import onnx

    model.eval()
    h, w = spec.input_size
    sample = torch.zeros(2, 3, h, w)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        model, (sample,), str(path), input_names=[INPUT_NAME],
        output_names=[LOGITS_NAME, EMBEDDING_NAME],
        dynamic_axes={INPUT_NAME: {0: "batch"}, LOGITS_NAME: {0: "batch"},
                      EMBEDDING_NAME: {0: "batch"}},
        opset_version=OPSET, dynamo=False,
    )
    proto = onnx.load(str(path))
    onnx.helper.set_model_props(proto, spec.to_metadata())
    proto.doc_string = "agari tile classifier: crops -> logits over class_names, embedding"
    onnx.save(proto, str(path))
    size = path.stat().st_size
    if size > MAX_MODEL_BYTES:
        raise ModelError(f"exported model is {size / 1e6:.1f} MB, over the 5 MB limit")
    _check_against_torch(model, path, spec)
    return path


def _check_against_torch(model: TileNet, path: Path, spec: ModelSpec) -> None:
    import onnxruntime as ort

    h, w = spec.input_size
    x = torch.from_numpy(np.random.default_rng(0).normal(0, 1, (3, 3, h, w)).astype(np.float32))
    with torch.no_grad():
        ref_logits, ref_emb = (t.numpy() for t in model(x))
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    logits, emb = session.run([LOGITS_NAME, EMBEDDING_NAME], {INPUT_NAME: x.numpy()})
    if not (np.allclose(logits, ref_logits, atol=1e-3) and np.allclose(emb, ref_emb, atol=1e-3)):
        raise ModelError("exported model disagrees with torch; not shipping it")
