"""agari.vision: OpenCV tile locator, crops, layout analyser and drawing.

``agari.vision.locate(image)`` is the locator (stage 1); see `agari.vision.locate`.
"""

from agari.vision.detection import TileDetection
from agari.vision.locate import DEFAULT_CONFIG, LocateConfig, locate

__all__ = ["DEFAULT_CONFIG", "LocateConfig", "TileDetection", "locate"]
