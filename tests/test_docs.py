"""The documentation's examples run, so they cannot rot.

* every ``>>>`` example of ``docs/**/*.md`` runs as a doctest, one namespace per page;
* every ``$ la-graph ...`` command of a ``console`` block runs, and prints the
  lines shown (numbers with a decimal point, i.e. times, aside);
* a ``python`` block that defines a function of :mod:`la_graph.examples` shows
  its current source (such listings are not run as doctests: their docstrings'
  examples run with the module);
* ``mkdocs.yml``'s navigation names only pages that exist (``mkdocs build
  --strict`` in ``.ci/run`` checks the rest: links, anchors).
"""

from __future__ import annotations

import contextlib
import doctest
import io
import inspect
import re
import shlex
from pathlib import Path

import pytest

from la_graph import cli

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _id(p):
    return str(p.relative_to(DOCS))


@pytest.mark.parametrize("page", PAGES, ids=_id)
def test_page_examples(page):
    # listings of functions (their docstrings hold doctests of their own, run by --doctest-modules)
    text = re.sub(r"```python\ndef .*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    test = doctest.DocTestParser().get_doctest(text, {"__name__": "__docs__"}, _id(page), str(page), 0)
    if not test.examples:
        pytest.skip("no >>> examples on this page")
    out = []
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test, out=out.append)
    test.globs.clear()
    assert runner.failures == 0, "".join(out)


def example_listings():
    from la_graph import examples

    for page in PAGES:
        for block in re.findall(r"```python\n(def (\w+)\(.*?)```", page.read_text(encoding="utf-8"), flags=re.S):
            code, name = block
            if hasattr(examples, name):
                yield pytest.param(code, getattr(examples, name), id=f"{_id(page)}: {name}")


@pytest.mark.parametrize("code, func", list(example_listings()))
def test_listings_show_the_current_source(code, func):
    assert code == inspect.getsource(func), f"the listing of {func.__name__} differs from la_graph/examples.py"


def console_blocks():
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for block in re.findall(r"```console\n(.*?)```", text, flags=re.S):
            cmd, expected = None, []
            for line in block.splitlines():
                if line.startswith("$ "):
                    if cmd:
                        yield pytest.param(cmd, expected, id=f"{_id(page)}: {cmd}")
                    cmd, expected = line[2:], []
                elif cmd:
                    expected.append(line)
            if cmd:
                yield pytest.param(cmd, expected, id=f"{_id(page)}: {cmd}")


def _normal(line):
    # times aside; and the command runs its algorithm twice only when the first call took under a
    # second, so "X ms (first call Y ms, with start-up)" and "X ms (with start-up)" are the same line
    # (a cold cache of compiled kernels, or a busy machine, makes the first call slower)
    return re.sub(r"\d+\.\d+", "#", line.rstrip()).replace("(first call # ms, with start-up)", "(with start-up)")


@pytest.mark.parametrize("cmd, expected", list(console_blocks()))
def test_console_examples(cmd, expected, monkeypatch):
    # in this process, through the entry point's own function (a process each cost ~1.5 s of start-up;
    # tests/test_cli.py runs the installed command in processes of its own)
    argv = shlex.split(cmd)
    assert argv[0] == "la-graph", f"only la-graph commands are run: {cmd}"
    monkeypatch.chdir(ROOT)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = cli.main(argv[1:])
        except SystemExit as exc:               # argparse's usage errors
            rc = exc.code
    got = (out.getvalue() + err.getvalue()).splitlines()
    want_error = any(line.startswith("la-graph: error") for line in expected)
    assert rc == (2 if want_error else 0), out.getvalue() + err.getvalue()
    assert [_normal(x) for x in got] == [_normal(x) for x in expected]


def test_mkdocs_nav_names_existing_pages():
    yaml = pytest.importorskip("yaml")
    cfg = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))

    def pages(nav):
        for item in nav:
            value = next(iter(item.values())) if isinstance(item, dict) else item
            if isinstance(value, list):
                yield from pages(value)
            else:
                yield value

    listed = list(pages(cfg["nav"]))
    missing = [p for p in listed if not (DOCS / p).is_file()]
    assert not missing, f"mkdocs.yml names pages that do not exist: {missing}"
    assert len(listed) == len(set(listed))


def test_readme_python_example_runs():
    """README's first example runs as it is written (it read a placeholder file once)."""
    text = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})

