"""`TileNet`: the classifier's small CNN (torch; training only, behind ``agari[train]``).

A plain stack of 3×3 conv-BN-ReLU blocks, three stride-2 stages, global
average pooling, a linear embedding (exported beside the logits for later
per-set calibration) and a linear class layer. Sized for ≥1000 crops/s under
onnxruntime on two CPU cores at 64×48 input.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn


@dataclass(frozen=True, slots=True)
class NetConfig:
    """Architecture of `TileNet`.

    Attributes:
        stages: ``(channels, convs)`` per resolution; each stage starts with a
            stride-2 conv (64×48 → 4×3 after four stages).
        head: channels of the 1×1 conv before pooling.
        embedding: embedding size.
        dropout: before the class layer, in training.
    """

    stages: tuple[tuple[int, int], ...] = ((24, 1), (48, 2), (96, 2), (160, 2))
    head: int = 256
    embedding: int = 128
    dropout: float = 0.2


def _block(cin: int, cout: int, stride: int = 1, kernel: int = 3) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, kernel, stride, kernel // 2, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class TileNet(nn.Module):
    """Crops ``float32 (N, 3, H, W)`` → ``(logits (N, C), embedding (N, D))``."""

    def __init__(self, n_classes: int, config: NetConfig = NetConfig()) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        cin = 3
        for channels, convs in config.stages:
            for j in range(convs):
                layers.append(_block(cin, channels, stride=2 if j == 0 else 1))
                cin = channels
        layers.append(_block(cin, config.head, kernel=1))
        self.features = nn.Sequential(*layers)
        self.embed = nn.Linear(config.head, config.embedding)
        self.dropout = nn.Dropout(config.dropout)
        self.classify = nn.Linear(config.embedding, n_classes)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        pooled = self.features(x).mean(dim=(2, 3))
        embedding = self.embed(pooled)
        logits = self.classify(self.dropout(torch.relu(embedding)))
        return logits, embedding
