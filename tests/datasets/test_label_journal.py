"""The SQLite journal: outcomes committed at once, read back in name order, one job a folder."""

import sqlite3

import pytest
from agari.datasets.label_journal import JOURNAL_NAME, JobLock, Journal
from agari.engine.errors import InvalidInput

RECORD = {"width": 4, "height": 3, "tiles": []}
FAILURE = {"error": {"code": "bad_image", "message": "b.jpg: not a readable image"}}


def test_outcomes_are_on_disk_as_soon_as_committed(tmp_path):
    journal = Journal.open(tmp_path, resume=False)
    journal.commit("b.jpg", "/src/b.jpg", {"record": RECORD})
    # Another connection (as after a kill) sees the row without any close or flush.
    rows = sqlite3.connect(tmp_path / JOURNAL_NAME).execute(
        "SELECT name, status FROM images").fetchall()
    assert rows == [("b.jpg", "done")]
    journal.close()


def test_entries_come_back_in_name_order_with_failures_apart(tmp_path):
    journal = Journal.open(tmp_path, resume=False)
    for name in ("z.jpg", "a/b.jpg", "B.jpg", "a.jpg"):
        journal.commit(name, f"/src/{name}", {"record": RECORD})
    journal.commit("bad.jpg", "/src/bad.jpg", FAILURE)
    journal.close()
    again = Journal.open(tmp_path, resume=True)
    assert [e.name for e in again.entries()] == ["B.jpg", "a.jpg", "a/b.jpg", "z.jpg"]
    assert again.done_names() == {"B.jpg", "a.jpg", "a/b.jpg", "z.jpg"}
    failed = [e for e in again.entries(done_only=False) if not e.done]
    assert [(e.name, e.error) for e in failed] == [
        ("bad.jpg", ("bad_image", "b.jpg: not a readable image"))]
    assert (again.count("done"), again.count("failed")) == (4, 1)
    again.close()


def test_a_failed_image_that_later_succeeds_is_done(tmp_path):
    journal = Journal.open(tmp_path, resume=False)
    journal.commit("b.jpg", "/src/b.jpg", FAILURE)
    journal.commit("b.jpg", "/src/b.jpg", {"record": RECORD})
    assert [e.record for e in journal.entries()] == [RECORD]
    assert journal.count("failed") == 0


def test_an_earlier_run_is_never_reused_without_resume(tmp_path):
    Journal.open(tmp_path, resume=False).close()
    with pytest.raises(InvalidInput, match="--resume") as err:
        Journal.open(tmp_path, resume=False)
    assert err.value.code == "journal_exists"


@pytest.mark.parametrize(("second", "error"), [
    ({"model_sha256": "abc", "top_k": "3"}, None),
    ({"model_sha256": "abc"}, None),
    ({"model_sha256": "def", "top_k": "3"}, "model_sha256"),
    ({"model_sha256": "abc", "top_k": "5"}, "top_k"),
])
def test_settings_must_match_the_earlier_run(tmp_path, second, error):
    journal = Journal.open(tmp_path, resume=False)
    journal.settle_meta({"model_sha256": "abc", "top_k": "3"})
    if error is None:
        journal.settle_meta(second)
        assert journal.meta()["model_sha256"] == "abc"
    else:
        with pytest.raises(InvalidInput, match=error) as err:
            journal.settle_meta(second)
        assert err.value.code == "journal_mismatch"


def test_a_file_that_is_not_a_journal_is_a_clear_error(tmp_path):
    (tmp_path / JOURNAL_NAME).write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(InvalidInput, match="cannot open the journal"):
        Journal.open(tmp_path, resume=True)


def test_one_job_per_folder_at_a_time(tmp_path):
    lock = JobLock(tmp_path / "job")
    with pytest.raises(InvalidInput, match="another agari process") as err:
        JobLock(tmp_path / "job")
    assert err.value.code == "busy"
    lock.release()
    JobLock(tmp_path / "job").release()
