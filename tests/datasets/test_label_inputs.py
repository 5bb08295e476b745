"""`expand_inputs`: files, folders and patterns become uniquely named images in a stable order."""

import os

import pytest
from agari.datasets.label_inputs import expand_inputs
from agari.engine.errors import InvalidInput


def touch(root, *names):
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"x")
    return root


@pytest.fixture
def tree(tmp_path):
    return touch(tmp_path, "a/1.jpg", "a/2.PNG", "a/deep/3.webp", "a/readme.md",
                 "a/.hidden/4.jpg", "a/.5.jpg", "b/1.jpg", "b/x.tif", "c.jpeg")


def names(listing):
    return list(listing.names)


@pytest.mark.parametrize(("specs", "expected"), [
    (["a"], ["1.jpg", "2.PNG", "deep/3.webp"]),
    (["a", "b"], ["a/1.jpg", "a/2.PNG", "a/deep/3.webp", "b/1.jpg", "b/x.tif"]),
    (["b", "a"], ["a/1.jpg", "a/2.PNG", "a/deep/3.webp", "b/1.jpg", "b/x.tif"]),
    (["a/1.jpg"], ["1.jpg"]),
    (["a/1.jpg", "b/1.jpg"], ["a/1.jpg", "b/1.jpg"]),
    (["a/*.jpg"], ["1.jpg"]),
    (["*/1.jpg"], ["a/1.jpg", "b/1.jpg"]),
    (["a/**/*.webp"], ["deep/3.webp"]),
    (["a", "a/1.jpg", "a/*.jpg"], ["1.jpg", "2.PNG", "deep/3.webp"]),
    (["a/readme.md"], ["readme.md"]),  # named explicitly: tried, whatever the suffix
])
def test_names_are_relative_to_the_common_folder(tree, monkeypatch, specs, expected):
    monkeypatch.chdir(tree)
    listing = expand_inputs(specs)
    assert names(listing) == expected
    assert all(i.path.is_absolute() and i.path.is_file() for i in listing.images)


def test_absolute_and_relative_specs_give_the_same_names(tree, monkeypatch):
    monkeypatch.chdir(tree)
    assert names(expand_inputs(["a", "b"])) == names(
        expand_inputs([str(tree / "a"), str(tree / "b")]))


def test_other_files_in_folders_are_listed_as_not_images(tree):
    listing = expand_inputs([str(tree / "a")])
    assert [p.name for p in listing.not_images] == ["readme.md"]
    assert listing.root == tree / "a"


@pytest.mark.parametrize(("spec", "message"), [
    ("missing", "no such file or folder: missing"),
    ("a/*.gif", "nothing matches a/*.gif"),
])
def test_bad_specs_are_clear_errors(tree, monkeypatch, spec, message):
    monkeypatch.chdir(tree)
    with pytest.raises(InvalidInput, match="^" + message.replace("*", r"\*")) as err:
        expand_inputs([spec])
    assert err.value.code == "no_input"


def test_the_jobs_own_output_folder_is_never_an_input(tree, monkeypatch):
    touch(tree, "a/out/images/1.jpg", "a/out/annotations.csv")
    monkeypatch.chdir(tree)
    listing = expand_inputs(["a"], exclude=tree / "a" / "out")
    assert names(listing) == ["1.jpg", "2.PNG", "deep/3.webp"]
    assert [p.name for p in listing.not_images] == ["readme.md"]
    assert "out/images/1.jpg" in names(expand_inputs(["a"]))


def test_no_specs_is_an_error():
    with pytest.raises(InvalidInput, match="no inputs"):
        expand_inputs([])


def test_an_empty_folder_lists_nothing(tmp_path):
    (tmp_path / "empty").mkdir()
    assert expand_inputs([str(tmp_path / "empty")]).images == ()


def test_home_is_expanded(tree, monkeypatch):
    monkeypatch.setenv("HOME", str(tree))
    assert names(expand_inputs(["~/b"])) == ["1.jpg", "x.tif"]
    assert os.path.expanduser("~") == str(tree)
