"""The webcam window (OpenCV HighGUI). Imported only when a window is asked for.

Opening a window without a display would abort the process inside the GUI
toolkit, so `Window` first checks that there is one and otherwise raises a
clear error that points to ``--no-window``.
"""

from __future__ import annotations

import os
import sys

import numpy as np

from agari.engine.errors import AgariError

ESC = 27
NO_KEY = 255


class Window:
    """A resizable window that shows frames and reports key presses."""

    def __init__(self, title: str = "agari webcam") -> None:
        if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY")
                                                     or os.environ.get("WAYLAND_DISPLAY")):
            raise AgariError("no display to open a window on; use --no-window (and --record)",
                             code="no_display")
        import cv2

        self.title = title
        try:
            cv2.namedWindow(title, cv2.WINDOW_NORMAL)
        except cv2.error as exc:
            raise AgariError(f"cannot open a window: {str(exc).strip().splitlines()[-1]}; "
                             "use --no-window", code="no_display") from None
        self._shown = False

    def show(self, image: np.ndarray) -> str | None:
        """Show a frame; the key pressed meanwhile (``"esc"``, a character, or None).

        Closing the window counts as ``"q"``.
        """
        import cv2

        cv2.imshow(self.title, image)
        self._shown = True
        code = cv2.waitKey(1) & 0xFF
        if cv2.getWindowProperty(self.title, cv2.WND_PROP_VISIBLE) < 1:
            return "q"
        if code == NO_KEY:
            return None
        return "esc" if code == ESC else chr(code)

    def close(self) -> None:
        import cv2

        if self._shown:
            cv2.destroyWindow(self.title)
            cv2.waitKey(1)
