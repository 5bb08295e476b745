"""agari.models: the ONNX tile classifier (inference) and, behind `agari[train]`, its training."""
