"""Training the tile-core net (`agari.vision.cores`) on rendered scenes (torch).

Data: scenes from `agari.datasets.scene.render_scene` (all kinds, the renderer's
own mix of sizes, framing, clutter and effects), scaled to `SceneData.size`.
Per output pixel (stride `STRIDE`) the target is background, face-up core,
face-down core or "ignore" (tiles 15-60 % visible: neither taught as tile nor as
background), and at core pixels the four face corners. A core is the middle
`CORE_SHARE` of a face along both sides, so cores of touching tiles stay apart.

Training reads random crops (`Recipe.crop` pixels, zoomed 0.6-1.6×, quarter
turns, mirroring, colour, grain and blur) so the net sees each tile size at
many scales and no colour is special. Seeded end to end: with ``Recipe.loaders`` worker
processes making crops, each worker has its own seeded stream and the batches are taken
from the workers in turn, so a run repeats exactly for the same recipe. ``Recipe.device``
runs the net on a GPU when torch has one (crops are still made on the CPU).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F
from agari.vision.cores import CORNER_NORM, STRIDE
from torch import nn

CORE_SHARE = 0.5
"""A core spans this share of its face's sides (about its centre)."""
BACKGROUND, FACE_UP, FACE_DOWN, IGNORE = 0, 1, 2, 3
MAX_TILES = 400
"""Tiles recorded per scene (a full table holds under 200)."""
SEEN = (0.15, 0.6)
"""Tiles less visible than the first are background, than the second are ignored."""


@dataclass(frozen=True, slots=True)
class Recipe:
    seed: int = 0
    scenes: int = 2200
    first_seed: int = 300_000
    """Scene seeds used: far from the benches' (photo_eval 900000, locate_eval 0...)."""
    size: tuple[int, int] = (960, 540)
    steps: int = 3200
    batch: int = 16
    crop: int = 256
    lr: float = 3e-3
    threads: int = 2
    holdout: int = 60
    """The last scenes are kept out of training (a check the loss can be read on)."""
    loaders: int = 0
    """Processes making crops beside training (0: crops are made between steps)."""
    device: str = "cpu"
    """torch device the net trains on (``cuda`` for a GPU)."""


def _block(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, dilation, dilation=dilation, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class CoreNet(nn.Module):
    """Encoder to 1/8 (dilated to see a whole row), two skip steps back to 1/2.

    Input: BGR 0..255 ``(N, 3, H, W)``, sides multiples of 8. Output ``(N, 11, H/2, W/2)``:
    softmax over background / face-up / face-down, then 8 corner offsets.
    """

    def __init__(self) -> None:
        super().__init__()
        self.e1 = _block(3, 16, 2)
        self.e2 = nn.Sequential(_block(16, 32, 2), _block(32, 32))
        self.e3 = nn.Sequential(_block(32, 64, 2), _block(64, 64), _block(64, 64, dilation=2),
                                _block(64, 64, dilation=4))
        self.d2 = nn.Sequential(nn.Conv2d(96, 32, 1, bias=False), nn.BatchNorm2d(32),
                                nn.ReLU(inplace=True), _block(32, 32))
        self.d1 = nn.Sequential(nn.Conv2d(48, 24, 1, bias=False), nn.BatchNorm2d(24),
                                nn.ReLU(inplace=True))
        self.head = nn.Conv2d(24, 11, 1)

    def logits(self, x: torch.Tensor) -> torch.Tensor:
        x = x / 255.0 - 0.5
        a = self.e1(x)
        b = self.e2(a)
        c = self.e3(b)
        up = F.interpolate(c, scale_factor=2.0, mode="bilinear", align_corners=False)
        d = self.d2(torch.cat([up, b], 1))
        up = F.interpolate(d, scale_factor=2.0, mode="bilinear", align_corners=False)
        return self.head(self.d1(torch.cat([up, a], 1)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = self.logits(x)
        return torch.cat([torch.softmax(out[:, :3], 1), out[:, 3:]], 1)


def clockwise_from_top_left(quad: np.ndarray) -> np.ndarray:
    """The four corners clockwise on screen, starting at the one nearest up-left of the
    centre: the order the net learns, whatever way the tile is turned."""
    centre = quad.mean(axis=0)
    angle = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    order = np.argsort(angle)
    quad, angle = quad[order], angle[order]
    start = int(np.argmin(np.abs((angle + 3 * np.pi / 4 + np.pi) % (2 * np.pi) - np.pi)))
    return np.roll(quad, -start, axis=0)


@dataclass(frozen=True, slots=True)
class SceneData:
    """Rendered training scenes: images, class maps, tile-index maps, face corners."""

    images: np.ndarray   # uint8 (n, H, W, 3)
    classes: np.ndarray  # uint8 (n, H/2, W/2)
    ids: np.ndarray      # uint16 (n, H/2, W/2): tile index + 1 at core pixels, 0 elsewhere
    quads: np.ndarray    # float32 (n, MAX_TILES, 4, 2) in image pixels


def render_data(recipe: Recipe, folder: Path, part: int = 0, parts: int = 1,
                log: Callable[[str], None] = lambda _: None) -> None:
    """Render scenes ``part::parts`` of the recipe into ``folder`` (numpy files, so
    several processes can share the work and training can map them from disk)."""
    from agari.datasets.scene import SceneConfig, render_scene

    w, h = recipe.size
    config = SceneConfig(width=2 * w, height=2 * h)
    mine = list(range(part, recipe.scenes, parts))
    folder.mkdir(parents=True, exist_ok=True)
    out = _create(folder / f"part{part}", len(mine), recipe.size)
    for row, k in enumerate(mine):
        image, ann = render_scene(recipe.first_seed + k, config)
        out.images[row] = cv2.resize(image, (w, h), interpolation=cv2.INTER_AREA)
        classes = np.zeros((h // STRIDE, w // STRIDE), np.uint8)
        ids = np.zeros_like(classes, dtype=np.uint16)
        # Most visible last: where tiles overlap the one in front owns the pixels.
        order = sorted(range(min(len(ann.tiles), MAX_TILES)), key=lambda j: ann.tiles[j].visible)
        for j in order:
            tile = ann.tiles[j]
            if tile.visible < SEEN[0]:
                continue
            quad = np.asarray(tile.quad, np.float32) / 2  # rendered at twice the size
            out.quads[row, j] = quad
            centre = quad.mean(axis=0)
            # fillPoly takes a pixel's corner for its centre, so cores sit half an output pixel
            # up and left; the corner targets are measured from true pixel centres, so the
            # decoded quads are not shifted. (The shipped net was trained on exactly this.)
            core = np.round((centre + (quad - centre) * CORE_SHARE) / STRIDE * 8).astype(np.int32)
            value = IGNORE if tile.visible < SEEN[1] else FACE_DOWN if tile.face_down else FACE_UP
            cv2.fillPoly(classes, [core], value, shift=3)
            cv2.fillPoly(ids, [core], j + 1, shift=3)
        out.classes[row], out.ids[row] = classes, ids
        if row % 200 == 0:
            log(f"part {part}: scene {row}/{len(mine)}")
    for arr in (out.images, out.classes, out.ids, out.quads):
        arr.flush()
    (folder / f"part{part}.done").write_text(f"{len(mine)} scenes\n", encoding="utf-8")


_FIELDS = ("images", "classes", "ids", "quads")


def _create(stem: Path, n: int, size: tuple[int, int]) -> SceneData:
    """Empty arrays for ``n`` scenes of ``size``, mapped to ``{stem}_{field}.npy``."""
    w, h = size
    grid = (n, h // STRIDE, w // STRIDE)
    shapes = {"images": ((n, h, w, 3), np.uint8), "classes": (grid, np.uint8),
              "ids": (grid, np.uint16), "quads": ((n, MAX_TILES, 4, 2), np.float32)}
    return SceneData(**{name: np.lib.format.open_memmap(f"{stem}_{name}.npy", "w+", dtype, shape)
                        for name, (shape, dtype) in shapes.items()})


def load_data(folder: Path) -> list[SceneData]:
    """The parts `render_data` finished in ``folder`` (an interrupted part is not read)."""
    return [SceneData(**{name: np.load(f"{p.with_suffix('')}_{name}.npy", mmap_mode="r")
                         for name in _FIELDS})
            for p in sorted(folder.glob("part*.done"))]


class Sampler:
    """Random augmented crops and their targets (class map, corner offsets, weights)."""

    def __init__(self, data: list[SceneData], recipe: Recipe, rng: np.random.Generator) -> None:
        self.data, self.recipe, self.rng = data, recipe, rng

    def crop(self, d: int, i: int) -> tuple[np.ndarray, ...]:
        rng, size = self.rng, self.recipe.crop
        src = self.data[d]
        image, classes, ids = src.images[i], src.classes[i], src.ids[i]
        h, w = image.shape[:2]
        zoom = math.exp(rng.uniform(math.log(0.6), math.log(1.6)))
        side = min(int(size / zoom) // 2 * 2, h // 2 * 2)

        def corner() -> tuple[int, int]:
            return (int(rng.integers(0, (h - side) // 2 + 1)) * 2,
                    int(rng.integers(0, (w - side) // 2 + 1)) * 2)

        y, x = corner()
        for _ in range(4):  # prefer crops holding some tile
            window = classes[y // 2:(y + side) // 2, x // 2:(x + side) // 2]
            if (window == FACE_UP).mean() > 0.01 or rng.random() < 0.25:
                break
            y, x = corner()
        k = size / side
        img = cv2.resize(np.ascontiguousarray(image[y:y + side, x:x + side]), (size, size),
                         interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
        half = (size // STRIDE, size // STRIDE)
        window = (slice(y // 2, (y + side) // 2), slice(x // 2, (x + side) // 2))
        cls = cv2.resize(np.ascontiguousarray(classes[window]), half,
                         interpolation=cv2.INTER_NEAREST)
        idm = cv2.resize(np.ascontiguousarray(ids[window]).astype(np.float32), half,
                         interpolation=cv2.INTER_NEAREST).astype(np.int64)
        quads = (np.asarray(src.quads[i]) - np.float32([x, y])) * k
        for _ in range(int(rng.integers(4)) if rng.random() < 0.3 else 0):
            img, cls, idm = np.rot90(img), np.rot90(cls), np.rot90(idm)
            quads = np.stack([quads[..., 1], size - quads[..., 0]], -1)
        if rng.random() < 0.5:
            img, cls, idm = img[:, ::-1], cls[:, ::-1], idm[:, ::-1]
            quads = np.stack([size - quads[..., 0], quads[..., 1]], -1)
        offsets, weight = _corner_targets(cls, idm, quads)
        return _colour(img, rng), np.ascontiguousarray(cls), offsets, weight

    def batch(self, items: list[tuple[int, int]]) -> tuple[torch.Tensor, ...]:
        """Images, classes, corner offsets and weights, stacked in compact types (uint8,
        float16: a quarter of the bytes to pass from loader processes); `_unpack` widens."""
        parts = list(zip(*(self.crop(d, i) for d, i in items), strict=True))
        return (torch.from_numpy(np.stack(parts[0])), torch.from_numpy(np.stack(parts[1])),
                torch.from_numpy(np.stack(parts[2]).astype(np.float16)),
                torch.from_numpy(np.stack(parts[3]).astype(np.float16)))


def _unpack(batch: tuple[torch.Tensor, ...], device: torch.device) -> tuple[torch.Tensor, ...]:
    x, cls, offsets, weight = (t.to(device, non_blocking=True) for t in batch)
    return x.float(), cls.long(), offsets.float(), weight.float()


def _colour(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Colour, brightness, grain and blur changes: no colour or contrast is special."""
    x = img.astype(np.float32)
    if rng.random() < 0.3:
        x = x[:, :, rng.permutation(3)]
    if rng.random() < 0.15:
        x = np.repeat(x.mean(axis=2, keepdims=True), 3, axis=2)
    x = x * rng.uniform(0.6, 1.3) + rng.uniform(-30, 30)
    if rng.random() < 0.3:
        x = x + rng.normal(0, rng.uniform(2, 10), x.shape)
    if rng.random() < 0.2:
        k = int(rng.choice([3, 5]))
        x = cv2.GaussianBlur(x, (k, k), 0)
    return np.rint(np.clip(x, 0, 255)).astype(np.uint8).transpose(2, 0, 1).copy()


def _corner_targets(cls: np.ndarray, idm: np.ndarray, quads: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Corner offsets at core pixels (units of `CORNER_NORM`), and each pixel's weight:
    `CORNER_NORM` over its tile's size, so a small tile's corners count as much."""
    h, w = cls.shape
    offsets = np.zeros((8, h, w), np.float32)
    weight = np.zeros((h, w), np.float32)
    rows, cols = np.nonzero((idm > 0) & ((cls == FACE_UP) | (cls == FACE_DOWN)))
    if len(rows):
        tiles = idm[rows, cols] - 1
        ordered = {int(t): clockwise_from_top_left(quads[t]) for t in np.unique(tiles)}
        sizes = {t: math.sqrt(abs(cv2.contourArea(q.astype(np.float32)))) + 1
                 for t, q in ordered.items()}
        at = np.stack([(cols + 0.5) * STRIDE, (rows + 0.5) * STRIDE], -1)
        corners = np.stack([ordered[int(t)] for t in tiles])
        offsets[:, rows, cols] = ((corners - at[:, None, :]) / CORNER_NORM).reshape(-1, 8).T
        weight[rows, cols] = [CORNER_NORM / sizes[int(t)] for t in tiles]
    return offsets, weight


def loss(out: torch.Tensor, cls: torch.Tensor, offsets: torch.Tensor, weight: torch.Tensor
         ) -> tuple[torch.Tensor, torch.Tensor]:
    """Class loss (ignored pixels left out; cores weigh double) and corner loss."""
    target = cls.clone()
    ignored = cls == IGNORE
    target[ignored] = BACKGROUND
    per_pixel = F.cross_entropy(out[:, :3], target,
                                weight=torch.tensor([1.0, 2.0, 2.0], device=out.device),
                                reduction="none")
    class_loss = (per_pixel * ~ignored).sum() / (~ignored).sum().clamp(min=1)
    corner = F.smooth_l1_loss(out[:, 3:], offsets, reduction="none", beta=0.05).sum(1)
    corner_loss = (corner * weight).sum() / (weight > 0).sum().clamp(min=1)
    return class_loss, corner_loss


class _Crops(torch.utils.data.IterableDataset):
    """Batches from one seeded `Sampler` per loader process (``steps`` of them in all)."""

    def __init__(self, data: list[SceneData], recipe: Recipe, pool: list[tuple[int, int]]):
        super().__init__()
        self.data, self.recipe, self.pool = data, recipe, pool

    # Loader processes are started fresh (a forked copy of a process that has run OpenCV's
    # or torch's thread pools can hang), so this is pickled: arrays mapped from disk travel
    # as their file names, not their contents.
    def __getstate__(self) -> dict:
        def ref(arr: np.ndarray) -> object:
            return ("file", arr.filename) if isinstance(arr, np.memmap) and arr.filename \
                else arr

        data = [{name: ref(getattr(d, name)) for name in _FIELDS} for d in self.data]
        return {"data": data, "recipe": self.recipe, "pool": self.pool}

    def __setstate__(self, state: dict) -> None:
        def load(ref: object) -> np.ndarray:
            if isinstance(ref, tuple):
                return np.load(ref[1], mmap_mode="r")
            return ref  # type: ignore[return-value]

        self.data = [SceneData(**{k: load(v) for k, v in d.items()}) for d in state["data"]]
        self.recipe, self.pool = state["recipe"], state["pool"]

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        worker, workers = (info.id, info.num_workers) if info else (0, 1)
        torch.set_num_threads(1)
        cv2.setNumThreads(1)
        rng = np.random.default_rng([self.recipe.seed, worker + 1])
        sampler = Sampler(self.data, self.recipe, rng)
        # The loader takes batches from its workers in turn: worker w makes steps w, w+n...
        for _ in range(worker, self.recipe.steps, workers):
            yield sampler.batch([self.pool[j] for j in
                                 rng.integers(0, len(self.pool), self.recipe.batch)])


def _batches(data: list[SceneData], recipe: Recipe, pool: list[tuple[int, int]],
             rng: np.random.Generator):
    if recipe.loaders <= 0:
        sampler = Sampler(data, recipe, rng)
        for _ in range(recipe.steps):
            yield sampler.batch([pool[j] for j in rng.integers(0, len(pool), recipe.batch)])
        return
    import multiprocessing

    start = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    yield from torch.utils.data.DataLoader(
        _Crops(data, recipe, pool), batch_size=None, num_workers=recipe.loaders,
        pin_memory=recipe.device != "cpu", prefetch_factor=4, persistent_workers=False,
        multiprocessing_context=start)


def train(recipe: Recipe, data: list[SceneData], out: Path,
          log: Callable[[str], None] = lambda _: None, init: Path | None = None) -> CoreNet:
    """Train a `CoreNet` and save its weights to ``out`` (a ``.pt`` file) as it goes;
    ``init``: weights to start from: a ``.pt`` file an earlier run saved, or a plain ONNX
    export (`export`; its BatchNorms then stay frozen)."""
    torch.manual_seed(recipe.seed)
    torch.set_num_threads(recipe.threads)
    device = torch.device(recipe.device)
    rng = np.random.default_rng(recipe.seed)
    index = [(d, i) for d in range(len(data)) for i in range(len(data[d].images))]
    held = min(recipe.holdout, len(index) // 10)
    pool = index[:-held] if held else index
    net = CoreNet()
    # An exported net has its BatchNorms folded away: they come back as the identity and
    # must stay frozen (batch statistics would undo what the folded weights learnt).
    frozen = init is not None and init.suffix == ".onnx"
    if frozen:
        from agari.models.cores_init import load_onnx_cores

        load_onnx_cores(net, init)
    elif init is not None:
        net.load_state_dict(torch.load(init, map_location="cpu"))
    net = net.to(device)
    opt = torch.optim.AdamW(net.parameters(), recipe.lr * 2 / 3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, recipe.lr, total_steps=recipe.steps,
                                                pct_start=0.1)
    start, smooth = time.time(), None
    net.train()
    if frozen:
        from agari.models.training_init import freeze_batchnorm

        freeze_batchnorm(net)
    for step, batch in enumerate(_batches(data, recipe, pool, rng)):
        x, cls, offsets, weight = _unpack(batch, device)
        class_loss, corner_loss = loss(net.logits(x), cls, offsets, weight)
        opt.zero_grad()
        (class_loss + corner_loss).backward()
        opt.step()
        sched.step()
        if step % 50 == 0 or step == recipe.steps - 1:  # .item() waits for the GPU: not every step
            now = np.array([class_loss.item(), corner_loss.item()])
            smooth = now if smooth is None else 0.8 * smooth + 0.2 * now
        if step % 250 == 0 or step == recipe.steps - 1:
            log(f"step {step}: class loss {smooth[0]:.4f}, corner loss {smooth[1]:.4f}, "
                f"{time.time() - start:.0f} s")
            torch.save(net.state_dict(), out)
    return net.cpu().eval()


def export(net: CoreNet, path: Path) -> Path:
    """Write the net as ONNX (input ``image``, output ``cores``; any size) and check it
    against torch with onnxruntime."""
    net.eval()
    torch.onnx.export(net, (torch.zeros(1, 3, 544, 960),), str(path), input_names=["image"],
                      output_names=["cores"],
                      dynamic_axes={"image": {0: "n", 2: "h", 3: "w"},
                                    "cores": {0: "n", 2: "h2", 3: "w2"}},
                      opset_version=17, dynamo=False)
    diff = onnx_mismatch(net, path)
    if diff > 1e-3:
        raise RuntimeError(f"exported net disagrees with torch by {diff}")
    return path


def onnx_mismatch(net: CoreNet, path: Path) -> float:
    """Largest difference between ``net`` (put in eval mode) and the exported file at
    ``path`` on one random image (0..255)."""
    import onnxruntime as ort

    net.eval()
    x = np.random.default_rng(0).uniform(0, 255, (1, 3, 136, 240)).astype(np.float32)
    got = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(
        None, {"image": x})[0]
    with torch.no_grad():
        want = net(torch.from_numpy(x)).numpy()
    return float(np.abs(got - want).max())
