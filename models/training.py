"""Training `TileNet` on crop arrays (torch, CPU; behind ``agari[train]``).

Seeded end to end (data order, initialisation, dropout, online flips), single
process, threads capped. Library code never prints: progress goes to ``log``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np
import torch
import torch.nn.functional as F
from agari.engine.tiles import CLASS_NAMES
from agari.models.net import NetConfig, TileNet
from agari.models.spec import ModelSpec
from agari.models.training_init import freeze_batchnorm

Arrays = tuple[np.ndarray, np.ndarray]

LOG_EVERY = 200
"""Training steps between progress lines."""

MEAN = (0.5, 0.5, 0.5)
STD = (0.25, 0.25, 0.25)
"""Input normalisation (RGB, 0..1 scale), written into the model's metadata."""


@dataclass(frozen=True, slots=True)
class TrainConfig:
    """Optimisation settings."""

    epochs: int = 8
    batch_size: int = 128
    lr: float = 3e-3
    weight_decay: float = 5e-4
    label_smoothing: float = 0.05
    seed: int = 0
    threads: int = 2
    freeze_bn: bool = False
    """Keep every BatchNorm in eval mode (fine-tuning a net loaded from an ONNX file,
    whose BatchNorms hold the folded biases: `agari.models.training_init`)."""
    net: NetConfig = field(default_factory=NetConfig)


def to_tensor(crops: np.ndarray) -> torch.Tensor:
    """BGR ``uint8 (N, H, W, 3)`` → normalised RGB ``float32 (N, 3, H, W)`` (as in inference)."""
    x = torch.from_numpy(np.ascontiguousarray(crops[..., ::-1])).permute(0, 3, 1, 2).float()
    x = x / 255.0
    mean = torch.tensor(MEAN).view(1, 3, 1, 1)
    std = torch.tensor(STD).view(1, 3, 1, 1)
    return (x - mean) / std


def _online_augment(x: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """Cheap per-batch variety on top of the baked augmentation: turn, gain, offset."""
    n = x.shape[0]
    flip = torch.rand(n, generator=gen) < 0.5
    x = torch.where(flip.view(n, 1, 1, 1), x.flip(2, 3), x)
    gain = 1 + (torch.rand(n, 1, 1, 1, generator=gen) - 0.5) * 0.2
    offset = (torch.rand(n, 1, 1, 1, generator=gen) - 0.5) * 0.2
    return x * gain + offset


@torch.no_grad()
def predict(model: TileNet, crops: np.ndarray, batch_size: int = 512) -> np.ndarray:
    """Class probabilities ``float32 (N, C)`` from the torch model."""
    model.eval()
    out = []
    for s in range(0, len(crops), batch_size):
        logits, _ = model(to_tensor(crops[s:s + batch_size]))
        out.append(torch.softmax(logits, 1).numpy())
    return np.concatenate(out) if out else np.zeros((0, len(CLASS_NAMES)), np.float32)


def accuracy(model: TileNet, data: Arrays) -> float:
    x, y = data
    if not len(y):
        return float("nan")
    return float((predict(model, x).argmax(1) == y).mean())


def train(
    data: Arrays, *, config: TrainConfig = TrainConfig(),
    val: Mapping[str, Arrays] | None = None, log: Callable[[str], None] = lambda _: None,
    init: TileNet | None = None,
) -> TileNet:
    """Train a `TileNet` on ``(X uint8 (N, H, W, 3) BGR, y int64 (N,))``.

    Args:
        val: named validation sets, scored after every epoch (logged only).
        log: receives one line per progress report.
        init: a net to fine-tune (trained in place and returned) instead of a fresh one.
    """
    torch.manual_seed(config.seed)
    torch.set_num_threads(config.threads)
    gen = torch.Generator().manual_seed(config.seed)
    x_all, y_all = data
    model = init if init is not None else TileNet(len(CLASS_NAMES), config.net)
    opt = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    steps_per_epoch = max(1, len(y_all) // config.batch_size)
    sched = torch.optim.lr_scheduler.OneCycleLR(
        opt, max_lr=config.lr, total_steps=config.epochs * steps_per_epoch, pct_start=0.15
    )
    started = time.monotonic()
    order_rng = np.random.default_rng(config.seed)
    for epoch in range(config.epochs):
        model.train()
        if config.freeze_bn:
            freeze_batchnorm(model)
        order = order_rng.permutation(len(y_all))
        total, seen = 0.0, 0
        for step in range(steps_per_epoch):
            idx = np.sort(order[step * config.batch_size:(step + 1) * config.batch_size])
            x = _online_augment(to_tensor(x_all[idx]), gen)
            y = torch.from_numpy(y_all[idx])
            logits, _ = model(x)
            loss = F.cross_entropy(logits, y, label_smoothing=config.label_smoothing)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
            seen += len(idx)
            if (step + 1) % LOG_EVERY == 0:
                log(f"epoch {epoch + 1} step {step + 1}/{steps_per_epoch} "
                    f"loss {total / seen:.4f} ({time.monotonic() - started:.0f}s)")
        scores = {name: accuracy(model, v) for name, v in (val or {}).items()}
        elapsed = time.monotonic() - started
        log(f"epoch {epoch + 1}/{config.epochs} loss {total / max(seen, 1):.4f} "
            + " ".join(f"{k} {v:.4f}" for k, v in scores.items()) + f" ({elapsed:.0f}s)")
    model.eval()
    return model


def model_spec(crop_size: tuple[int, int], margin: float, extra: Mapping[str, str]) -> ModelSpec:
    """The metadata written with a model trained here."""
    return ModelSpec(
        class_names=CLASS_NAMES, input_size=crop_size, mean=MEAN, std=STD,
        channel_order="RGB", crop_margin=margin,
        extra=tuple(sorted((k, str(v)) for k, v in extra.items())),
    )
