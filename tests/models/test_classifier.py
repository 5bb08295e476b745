"""TileClassifier on a toy ONNX model with known answers (real onnxruntime)."""

from __future__ import annotations

import numpy as np
import pytest
from agari.engine.errors import ImageError, ModelError
from agari.engine.tiles import CLASS_NAMES, Tile
from agari.models import TileClassifier
from agari.models.classifier import label_of
from agari.models.spec import ModelSpec
from agari.vision.crops import box_quad
from agari.vision.detection import TileDetection

TOY_SIZE = (32, 24)  # the toy model's input, see conftest.write_toy_model
BGR = {"red": (0, 0, 255), "green": (0, 255, 0), "blue": (255, 0, 0)}


def flat_crops(*colours: str, size=TOY_SIZE) -> np.ndarray:
    out = np.zeros((len(colours), *size, 3), np.uint8)
    for i, c in enumerate(colours):
        out[i] = BGR[c]
    return out


@pytest.fixture(scope="module")
def toy(toy_model) -> TileClassifier:
    return TileClassifier.load(toy_model, threads=1)


def test_spec_comes_from_metadata(toy):
    assert toy.class_names == CLASS_NAMES
    assert toy.input_size == TOY_SIZE != (64, 48)


def test_predict_batch_probabilities_and_embeddings(toy):
    preds = toy.predict(flat_crops("red", "green", "blue"))
    assert preds.probs.shape == (3, len(CLASS_NAMES)) and preds.probs.dtype == np.float32
    np.testing.assert_allclose(preds.probs.sum(axis=1), 1.0, rtol=1e-5)
    assert preds.embeddings.shape == (3, 3)
    assert preds.best == ["0m", "6s", "back"]
    top = preds.top_k(3)
    assert [len(t) for t in top] == [3, 3, 3]
    assert top[0][0][0] == "0m" and top[0][0][1] > 0.99 and top[0][0][1] >= top[0][1][1]


def test_predict_resizes_any_size_and_turns_landscape(toy):
    odd = [np.full((50, 90, 3), BGR["green"], np.uint8), np.full((7, 5), 255, np.uint8)]
    preds = toy.predict(odd)
    assert preds.best[0] == "6s" and len(preds) == 2


@pytest.mark.parametrize("order", ["RGB", "BGR"])
def test_prepare_normalises_each_channel_as_the_formula(order):
    spec = ModelSpec(class_names=CLASS_NAMES, input_size=(16, 12), mean=(0.5, 0.4, 0.3),
                     std=(0.25, 0.2, 0.3), channel_order=order)
    crops = np.random.default_rng(0).integers(0, 256, (5, 16, 12, 3), dtype=np.uint8)
    x = TileClassifier(None, spec).prepare(crops)
    rgb = crops[..., ::-1] if order == "RGB" else crops
    want = (rgb.astype(np.float32) * np.float32(1 / 255) - np.float32(spec.mean)) \
        / np.float32(spec.std)
    assert x.shape == (5, 3, 16, 12) and x.dtype == np.float32 and x.flags.c_contiguous
    assert np.array_equal(x, want.transpose(0, 3, 1, 2))


def test_tensor_of_a_strided_or_empty_batch():
    spec = ModelSpec(class_names=CLASS_NAMES, input_size=(16, 12), mean=(0.5, 0.4, 0.3),
                     std=(0.25, 0.2, 0.3), channel_order="RGB")
    clf = TileClassifier(None, spec)
    crops = np.random.default_rng(1).integers(0, 256, (6, 16, 12, 3), dtype=np.uint8)
    assert np.array_equal(clf.tensor(crops[::2]), clf.tensor(crops)[::2])
    assert clf.tensor(crops[:0]).shape == (0, 3, 16, 12)


def test_predict_empty_batch(toy):
    preds = toy.predict(np.zeros((0, *TOY_SIZE, 3), np.uint8))
    assert preds.probs.shape == (0, len(CLASS_NAMES)) and preds.top_k() == []


def test_large_batch_is_chunked(toy):
    preds = toy.predict(flat_crops(*(["blue"] * 600)))
    assert len(preds) == 600 and set(preds.best) == {"back"}


def test_classify_detections_returns_labelled_copies(toy):
    img = np.zeros((100, 200, 3), np.uint8)
    img[10:90, 10:70] = BGR["red"]
    img[10:90, 120:180] = BGR["blue"]
    dets = [TileDetection(quad=box_quad(10, 10, 60, 80)),
            TileDetection(quad=box_quad(120, 10, 60, 80))]
    out = toy.classify_detections(img, dets, top_k=2)
    assert [d.label for d in out] == [Tile.parse("0m"), "back"]
    assert out[1].face_down and not out[0].face_down
    assert all(len(d.alternatives) == 2 and 0.9 < d.confidence <= 1 for d in out)
    assert dets[0].label is None  # originals untouched
    assert out[0].quad == dets[0].quad
    assert toy.classify_detections(img, []) == []


@pytest.mark.parametrize(
    ("name", "expected"),
    [("5m", Tile.parse("5m")), ("0p", Tile.parse("0p")), ("back", "back"), ("none", None)],
)
def test_label_of(name, expected):
    assert label_of(name) == expected


def test_bad_crops_raise(toy):
    with pytest.raises(ImageError):
        toy.predict(np.zeros((2, *TOY_SIZE, 3), np.float32))
    with pytest.raises(ImageError):
        toy.predict([np.zeros((0, 4, 3), np.uint8)])


def _no_meta(tmp_path, write_toy_model):
    import onnx

    path = write_toy_model(tmp_path / "m.onnx")
    model = onnx.load(str(path))
    del model.metadata_props[:]
    onnx.save(model, str(path))
    return path


def _garbage(tmp_path, _):
    path = tmp_path / "garbage.onnx"
    path.write_bytes(b"this is not a protobuf at all")
    return path


def _wrong_class_count(tmp_path, write_toy_model):
    return write_toy_model(tmp_path / "m.onnx", n_classes=12)


def _bad_metadata_value(tmp_path, write_toy_model):
    import onnx

    path = write_toy_model(tmp_path / "m.onnx")
    model = onnx.load(str(path))
    for prop in model.metadata_props:
        if prop.key == "agari.input_size":
            prop.value = "[64"
    onnx.save(model, str(path))
    return path


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda tmp, _: tmp / "missing.onnx", "not found"),
        (_garbage, "cannot load"),
        (_no_meta, "lacks metadata"),
        (_wrong_class_count, "classes"),
        (_bad_metadata_value, "not JSON"),
    ],
)
def test_bad_model_raises_model_error(tmp_path, make_toy_model, make, message):
    with pytest.raises(ModelError, match=message):
        TileClassifier.load(make(tmp_path, make_toy_model))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"class_names": ("a", "a")}, "distinct"),
        ({"input_size": (4, 64)}, "input size"),
        ({"std": (1.0, 0.0, 1.0)}, "normalisation"),
        ({"channel_order": "RGBA"}, "channel order"),
        ({"crop_margin": 1.5}, "margin"),
    ],
)
def test_spec_validation(kwargs, message):
    base = dict(class_names=CLASS_NAMES, input_size=(64, 48), mean=(0, 0, 0), std=(1, 1, 1))
    with pytest.raises(ModelError, match=message):
        ModelSpec(**{**base, **kwargs})


def test_spec_round_trips_metadata():
    spec = ModelSpec(class_names=CLASS_NAMES, input_size=(64, 48), mean=(0.5, 0.4, 0.3),
                     std=(0.2, 0.2, 0.2), crop_margin=0.1, extra=(("seed", "7"),))
    assert ModelSpec.from_metadata(spec.to_metadata()) == spec
