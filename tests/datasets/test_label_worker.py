"""One image through stages 1-2 in a worker: decoding, damaged files, the record it returns."""

import json

import cv2
import numpy as np
import pytest
from agari.datasets.label_export import detection_from_json
from agari.datasets.label_worker import WorkerConfig, decode_image, label_source
from agari.engine.errors import ImageError
from agari.engine.tiles import CLASS_NAMES
from label_factories import render_photos, write_toy_model


@pytest.fixture(scope="module")
def photo(tmp_path_factory):
    return render_photos(tmp_path_factory.mktemp("photos"), 1)[0]


@pytest.fixture(scope="module")
def config(tmp_path_factory):
    return WorkerConfig(model=str(write_toy_model(tmp_path_factory.mktemp("m") / "toy.onnx")))


def encoded(ext, image=None):
    image = np.full((40, 30, 3), (20, 120, 220), np.uint8) if image is None else image
    ok, buf = cv2.imencode(ext, image)
    assert ok
    return buf.tobytes()


@pytest.mark.parametrize("ext", [".jpg", ".png", ".webp", ".bmp", ".tif"])
def test_whole_files_decode(ext):
    image = decode_image(encoded(ext), "x" + ext)
    assert image.shape == (40, 30, 3) and image.dtype == np.uint8


def jpeg_with_trailer():
    """A JPEG followed by a second, complete one (as phones append depth or gain maps)."""
    return encoded(".jpg") + encoded(".jpg")


@pytest.mark.parametrize(("make", "code", "message"), [
    (lambda: b"", "bad_image", "x: empty file"),
    (lambda: encoded(".jpg")[:-200], "truncated_image", "x: truncated JPEG"),
    (lambda: encoded(".jpg")[:300], "truncated_image", "x: truncated JPEG"),
    (lambda: encoded(".png")[:-20], "truncated_image", "x: truncated PNG"),
    (lambda: b"\xff\xd8" + bytes(500), "truncated_image", "x: truncated JPEG"),
    (lambda: b"GIF89a not really", "bad_image", "x: not a readable image"),
    (lambda: b"plain text\n", "bad_image", "x: not a readable image"),
    (lambda: jpeg_with_trailer(), None, None),
])
def test_damaged_files_are_refused_with_their_name(make, code, message):
    if code is None:
        assert decode_image(make(), "x").shape == (40, 30, 3)
        return
    with pytest.raises(ImageError) as err:
        decode_image(make(), "x")
    assert err.value.code == code and str(err.value).startswith(message)


def test_a_photo_becomes_a_record_of_classified_tiles(photo, config):
    outcome = label_source(str(photo), "scene.jpg", config)
    record = outcome["record"]
    assert (record["width"], record["height"]) == (400, 300)
    assert record["tiles"], "the rendered scene has tiles the locator finds"
    for tile in record["tiles"]:
        det = detection_from_json(tile)
        assert det.label_name in CLASS_NAMES[:-1] or det.label is None
        assert 0.0 <= det.confidence <= 1.0 and len(det.alternatives) == config.top_k
        assert det.alternatives[0][1] == pytest.approx(det.confidence, abs=1e-4)
    assert json.loads(json.dumps(outcome)) == outcome  # plain JSON, ready for the journal


def test_the_same_image_gives_the_same_record_from_bytes_or_path(photo, config):
    by_path = label_source(str(photo), "a", config)
    by_bytes = label_source(photo.read_bytes(), "a", config)
    assert json.dumps(by_path) == json.dumps(by_bytes)


@pytest.mark.parametrize(("source", "code"), [
    ("/nonexistent/x.jpg", "bad_image"),
    (b"\x89PNG\r\n\x1a\nshort", "truncated_image"),
    (b"", "bad_image"),
])
def test_a_bad_source_is_an_error_outcome_not_an_exception(config, source, code):
    outcome = label_source(source, "bad.jpg", config)
    assert outcome["error"]["code"] == code
    assert outcome["error"]["message"].startswith("bad.jpg: ")


def test_a_tiny_image_is_refused_by_the_locator_as_an_outcome(config):
    outcome = label_source(encoded(".png", np.zeros((8, 8, 3), np.uint8)), "tiny.png", config)
    assert outcome["error"]["code"] == "bad_image" and "tiny.png" in outcome["error"]["message"]


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"top_k": 0}, "top_k"), ({"threads": 0}, "threads"),
])
def test_worker_config_is_validated(kwargs, message):
    with pytest.raises(ValueError, match=message):
        WorkerConfig(**kwargs)
