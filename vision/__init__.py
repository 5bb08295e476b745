"""agari.vision: OpenCV tile locator, crops, layout analyser and drawing."""

from agari.vision.detection import TileDetection

__all__ = ["TileDetection"]
