"""validate --jobs: 'auto' (the default), forked workers that start warm,
the same reports in the same order as one process."""

import json
import os
import signal

from click.testing import CliRunner

from railcheck import cli
from railcheck.cli import auto_jobs, main, run_checks

from conftest import DATA, EXPORTS_1830, REPO

EXPORTS_1860 = sorted((DATA / "exports" / "1860").glob("*.json"))
ILLEGAL = REPO / "examples" / "1830" / "illegal"


def run(*args, **kw):
    return CliRunner().invoke(main, [str(a) for a in args], **kw)


def test_auto_is_one_process_per_usable_cpu_at_most_one_per_file(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    assert (auto_jobs(1), auto_jobs(3), auto_jobs(4), auto_jobs(200)) == (1, 3, 4, 4)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {5}, raising=False)
    assert auto_jobs(200) == 1


def test_auto_does_not_follow_the_load_average(monkeypatch):
    """A load left by the caller's own earlier work does not keep a free
    machine to one process."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr(os, "getloadavg", lambda: (4.0, 4.0, 4.0), raising=False)
    assert auto_jobs(4) == 2
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(8)), raising=False)
    assert auto_jobs(100) == 8 and auto_jobs(3) == 3


def test_jobs_must_be_a_number_or_auto():
    for bad in ("0", "65", "two", ""):
        res = run("validate", "--jobs", bad, EXPORTS_1830[0])
        assert res.exit_code == 2, bad
        assert "Invalid value for '--jobs'" in res.output
    assert run("validate", "-q", "--jobs", "auto", EXPORTS_1830[0]).exit_code == 0


def _files(tmp_path):
    """Two titles, a game with findings, an unreadable file, in this order."""
    broken = tmp_path / "broken.json"
    broken.write_text('{"title": "1830", "players": [')
    illegal = sorted(ILLEGAL.glob("*.18xx"))[0]
    return [EXPORTS_1830[0], EXPORTS_1860[0], illegal, broken, EXPORTS_1830[1]]


def test_every_jobs_gives_the_json_and_exit_code_of_one_process(tmp_path):
    files = _files(tmp_path)
    one = run("validate", "--format", "json", "--jobs", "1", *files)
    assert one.exit_code == 2
    doc = json.loads(one.stdout)
    assert [f["path"] for f in doc["files"]] == [str(f) for f in files]
    assert [f["status"] for f in doc["files"]] == \
        ["legal", "legal", "findings", "unreadable", "legal"]
    for jobs in ("2", "3", "auto"):
        other = run("validate", "--format", "json", "--jobs", jobs, *files)
        assert other.exit_code == 2
        assert json.loads(other.stdout) == doc, jobs


def test_reports_come_in_the_order_of_the_files(tmp_path):
    files = [str(f) for f in _files(tmp_path)]
    seen = []
    reports = run_checks(files, jobs=3, board=True, progress=False, on_report=seen.append)
    assert [r.path for r in seen] == [r.path for r in reports] == files
    assert reports[3].error is not None and reports[3].error.path == files[3]


def test_progress_with_workers(tmp_path, capsys):
    files = [str(f) for f in EXPORTS_1830[:3]]
    reports = run_checks(files, jobs=2, board=True, progress=True)
    assert [r.status for r in reports] == ["legal"] * 3
    err = capsys.readouterr().err
    assert "] 1/3 " in err and "] 3/3 " in err and err.endswith("\r\x1b[K")


def test_a_worker_that_dies_is_an_error_of_its_files_not_a_traceback(monkeypatch):
    files = [str(f) for f in EXPORTS_1830[:4]]
    parent = os.getpid()
    real = cli.check_file

    def dies_in_a_worker(path, *args, **kw):
        if os.getpid() != parent and path == files[1]:
            os._exit(3)
        return real(path, *args, **kw)

    monkeypatch.setattr(cli, "check_file", dies_in_a_worker)
    # files 0 and 2 here, files 1 and 3 in the worker
    reports = run_checks(files, jobs=2, board=True, progress=False)
    # the file it died on is reported so, named; the one it had left (3) is
    # checked again in this process
    assert [r.status for r in reports] == ["legal", "unreadable", "legal", "legal"]
    assert reports[1].error.path == files[1]
    assert reports[1].error.bare == (
        f"not checked: the worker process ended (exit 3) while checking this file (out of "
        f"memory, or killed); the files it had left were checked again; 'railcheck validate "
        f"--jobs 1 {files[1]}' checks this one alone")


def test_a_worker_killed_mid_run_costs_only_the_file_it_was_checking(monkeypatch):
    # six files, two processes: the worker takes 1, 3, 5 and is killed
    # (as by the kernel's out-of-memory killer) while checking 3
    files = [str(f) for f in EXPORTS_1830[:3]] * 2
    parent = os.getpid()
    real = cli.check_file
    calls = []

    def killed_in_a_worker(path, *args, **kw):
        calls.append(path)
        if os.getpid() != parent and len(calls) == 2:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(path, *args, **kw)

    monkeypatch.setattr(cli, "check_file", killed_in_a_worker)
    reports = run_checks(files, jobs=2, board=True, progress=False)
    assert [r.path for r in reports] == files
    assert [r.status for r in reports] == ["legal"] * 3 + ["unreadable"] + ["legal"] * 2
    assert reports[3].error.bare.startswith(
        "not checked: the worker process was killed (SIGKILL) while checking this file")


def test_standard_input_is_read_in_this_process():
    text = EXPORTS_1830[0].read_text(encoding="utf-8")
    res = run("validate", "-q", "--jobs", "auto", "-", EXPORTS_1830[1], input=text)
    assert res.exit_code == 0
    assert "2 files: 2 legal" in res.output


def test_a_peeked_title_loads_its_ruleset_before_the_workers_fork(tmp_path):
    assert cli._peek_title(str(EXPORTS_1860[0])) == "1860"
    game = tmp_path / "g.18xx"
    game.write_text('# a comment\ntitle: "1830"\nplayers: A, B\n')
    assert cli._peek_title(str(game)) == "1830"
    assert cli._peek_title(str(tmp_path / "missing.json")) is None


def test_no_more_workers_than_files(monkeypatch):
    forks = []
    real = os.fork

    def counted():
        forks.append(1)
        return real()

    monkeypatch.setattr(os, "fork", counted)
    files = [str(f) for f in EXPORTS_1830[:2]]
    reports = run_checks(files, jobs=8, board=True, progress=False)
    assert [r.status for r in reports] == ["legal", "legal"]
    assert len(forks) == 1
