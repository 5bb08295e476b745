"""agari: score riichi mahjong hands from a camera.

Subpackages: `agari.engine` (scoring), `agari.vision` (locator, layout),
`agari.models` (ONNX classifier), `agari.datasets` (renderer, formats, bulk
labelling). This package holds the thin app layer: CLI, pipeline, webcam loop.
"""

__version__ = "0.1.0"
