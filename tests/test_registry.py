"""The algorithm registry and what is read from it or checked against it: nothing exists in code but not in
the docs, or the reverse.

* every public algorithm is registered (``@algorithm`` beside it), exported by ``la_graph``, and its
  checker is the one ``check=True`` runs;
* ``la-graph run`` has exactly the registered subcommands, each in README.md and in docs/cli.md's table;
* the NetworkX backend implements exactly the registered NetworkX functions (``_la_graph_nx.FUNCTIONS``
  is a literal: NetworkX imports that package while importing itself);
* the benchmark cases are the registered ones;
* every algorithm's page exists, and every page under docs/algorithms is an algorithm's;
* every public algorithm's ``engine`` parameter says :data:`~la_graph.algorithms._registry.ENGINE_DOC`,
  and the docs name all four engines;
* the operator interface's table (docs/engines.md owns it; the other pages link to it) lists exactly
  ``la_graph.engines.base.INTERFACE``;
* the generated blocks (the fused steps of every engine; the CLI's algorithms; NetworkX's functions;
  mkdocs.yml's "Algorithms:" navigation and docs/index.md's list of algorithm pages) are current.

A generated block sits between ``<!-- BEGIN generated: NAME -->`` and ``<!-- END generated: NAME -->``
(in YAML, the comment lines ``# BEGIN generated: NAME`` and ``# END generated: NAME``); rewrite them all
with ``python tests/test_registry.py --write``.  The GPU engine's fused steps are read
from its source (``@fuses`` in ``la_graph/engines/gpu/fused*``), so no CuPy is needed here.
"""

from __future__ import annotations

import ast
import inspect
import json
import re
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if __name__ == "__main__":                  # the generator, run as a script from anywhere
    sys.path.insert(0, str(ROOT))

import la_graph as lg  # noqa: E402
from la_graph import algorithms, cli  # noqa: E402
from la_graph.algorithms import _certify, steps  # noqa: E402
from la_graph.algorithms import _registry as R  # noqa: E402
from la_graph.engines import base  # noqa: E402

DOCS = ROOT / "docs"


def _read(rel):
    return (ROOT / rel).read_text(encoding="utf-8")


# ---------------------------------------------------------------------- what the code has
def cpu_fused_steps():
    """The CPU engine's fused steps (its ``fused_steps``)."""
    from la_graph.engines.cpu.fused import FUSED

    return set(FUSED)


def gpu_fused_steps():
    """The GPU engine's fused steps, read from its source: functions decorated ``@fuses`` under
    ``la_graph/engines/gpu/fused*`` (a module or a package; CuPy is not imported)."""
    found = set()
    gpu = ROOT / "la_graph" / "engines" / "gpu"
    for path in sorted(gpu.glob("fused*.py")) + sorted(gpu.glob("fused*/**/*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and any(
                    (d.id if isinstance(d, ast.Name) else getattr(d, "attr", None)) == "fuses"
                    for d in node.decorator_list):
                found.add(node.name)
    return found


def _first_sentence(doc):
    text = " ".join((doc or "").strip().split("\n\n")[0].split())
    return text.split(". ")[0].rstrip(".") + "."


# ---------------------------------------------------------------------- the generated blocks
def fused_steps_table():
    """Every step (``steps.STEPS``) with its module, what it computes and the engines that fuse it."""
    cpu, gpu = cpu_fused_steps(), gpu_fused_steps()
    rows = ["| module | step | what it computes | `cpu` | `gpu` |", "|---|---|---|---|---|"]
    for s in sorted(steps.STEPS.values(), key=lambda s: (s.__module__, s.name)):
        family = f" (family `{s.family}`)" if s.family != s.name else ""
        what = _first_sentence(s.__doc__).replace("|", "\\|")
        rows.append(f"| `{s.__module__.rsplit('.', 1)[1]}.py` | `{s.name}`{family} | {what} | "
                    f"{'fused' if s.name in cpu else ''} | {'fused' if s.name in gpu else ''} |")
    return "\n".join(rows)


def _options(a):
    return ", ".join(f"`--{o.replace('_', '-')}`" for o in a.cli.options)


def cli_table():
    """``la-graph run``'s algorithms: ALGO, the function it runs and its help, the options it reads."""
    rows = ["| ALGO | runs | options |", "|---|---|---|"]
    for name, a in cli._COMMANDS.items():
        rows.append(f"| `{name}` | `la_graph.{a.name}`: {a.cli.help} | {_options(a)} |")
    return "\n".join(rows)


def networkx_table():
    """Every NetworkX function the backend dispatches: the la_graph algorithm behind it (its page) and the first
    paragraph of the backend function's docstring (what it gives, what it declines)."""
    from la_graph import nx_backend         # imports networkx: only where the table is written or checked

    rows = ["| NetworkX function | la_graph algorithm | what la_graph gives |", "|---|---|---|"]
    for name, alg in R.networkx_functions().items():
        a = R.REGISTRY[alg]
        where = f"[`{alg}`]({a.page})" if a.page else f"`{alg}`"
        doc = " ".join(inspect.getdoc(getattr(nx_backend, name)).split("\n\n")[0].split()).replace("|", "\\|")
        rows.append(f"| `{name}` | {where} | {doc} |")
    return "\n".join(rows)


def networkx_expected_failures():
    """NetworkX's own tests the backend marks as expected failures, with the reasons."""
    from la_graph import nx_backend

    return "\n".join(f"* `{test}`: {why};" for test, why in nx_backend._KNOWN_TEST_DIFFERENCES.items())


def algorithm_pages():
    """page -> the algorithms documented on it: every registered page once, in the order of the pages' titles
    (what a reader scans for; the registry's order is the functions' names: "Subgraphs" under ego_graph)."""
    pages = {}
    for a in R.registered():
        pages.setdefault(a.page, []).append(a)
    return dict(sorted(pages.items(), key=lambda item: page_title(item[0]).casefold()))


def page_title(page):
    """A page's title: its first ``# `` heading (MkDocs' own rule for a page's title)."""
    return re.search(r"^# (.+?)\s*$", (DOCS / page).read_text(encoding="utf-8"), re.M).group(1)


def _yaml_key(text):
    # a plain YAML scalar may not hold ": " or " #", nor start with an indicator: quote those
    plain = not re.search(r": | #|:$", text) and not re.match(r"[-?:,\[\]{}#&*!|>'\"%@`]", text)
    return text if plain else json.dumps(text, ensure_ascii=False)


def mkdocs_nav():
    """mkdocs.yml's "Algorithms:" section: each algorithm's page under its title."""
    return "\n".join(f"- {_yaml_key(page_title(page))}: {page}" for page in algorithm_pages())


def index_algorithms():
    """docs/index.md's list of algorithm pages: the title, linked, and what the page's algorithms do
    (their registered ``summary``, each named where a page has several)."""
    rows = []
    for page, algs in algorithm_pages().items():
        what = algs[0].summary if len(algs) == 1 else "; ".join(f"`{a.name}`: {a.summary}" for a in algs)
        rows.append(f"* [{page_title(page)}]({page}): {what.rstrip('.')}.")
    return "\n".join(rows)


def readme_algorithms():
    """README.md's table of algorithms: a row per page, its functions linked to it, and what they do (their
    registered ``summary``, each named where a page has several)."""
    rows = ["| algorithm | what | `la-graph run` |", "|---|---|---|"]
    for page, algs in algorithm_pages().items():
        names = ", ".join(f"`la_graph.{a.name}`" for a in algs)
        what = algs[0].summary if len(algs) == 1 else "; ".join(f"`{a.name}`: {a.summary}" for a in algs)
        run = ", ".join(f"`{a.cli.name}`" for a in algs if a.cli is not None)
        rows.append(f"| {names} ([docs](docs/{page})) | {what.rstrip('.')} | {run} |")
    return "\n".join(rows)


#: (file, block name) -> its text
BLOCKS = {
    ("README.md", "algorithms"): readme_algorithms,
    ("docs/networkx.md", "networkx-functions"): networkx_table,
    ("docs/networkx.md", "networkx-expected-failures"): networkx_expected_failures,
    ("docs/writing-an-engine.md", "fused-steps"): fused_steps_table,
    ("docs/cli.md", "cli-algorithms"): cli_table,
    ("mkdocs.yml", "algorithms-nav"): mkdocs_nav,
    ("docs/index.md", "algorithm-pages"): index_algorithms,
}


def _block(name):
    # markdown marks a block with HTML comments, YAML with comment lines
    n = re.escape(name)
    return re.compile(rf"((?:<!-- |# )BEGIN generated: {n}(?: [^\n]*)?\n)(.*?)"
                      rf"((?:<!-- |# )END generated: {n}(?: -->)?$)", re.S | re.M)


def _indent_of(text, m):
    return text[text.rfind("\n", 0, m.start()) + 1:m.start()]


def render(rel, name):
    """File ``rel`` with block ``name`` rewritten."""
    text = _read(rel)
    m = _block(name).search(text)
    if m is None:
        raise AssertionError(f"{rel} has no generated block {name!r}")
    indent = _indent_of(text, m)
    body = textwrap.indent(BLOCKS[rel, name](), indent) + "\n" + indent
    return text[:m.start(2)] + body + text[m.end(2):]


@pytest.mark.parametrize("rel, name", list(BLOCKS))
def test_generated_blocks_are_current(rel, name):
    assert render(rel, name) == _read(rel), f"{rel}: block {name} is stale: run python tests/test_registry.py --write"


# ---------------------------------------------------------------------- the registry itself
def test_every_public_algorithm_is_registered_and_exported():
    names = {a.name for a in R.registered()}
    result_types = {n for n in algorithms.__all__ if inspect.isclass(getattr(algorithms, n))}
    assert set(algorithms.__all__) == names | result_types
    assert set(algorithms.__all__) <= set(lg.__all__)
    for a in R.registered():
        assert getattr(lg, a.name) is a.function, a.name
        assert a.function.__module__ == a.module


def test_every_algorithm_module_registers():
    """A module of la_graph/algorithms/ with a public algorithm registers it; a certified function is
    registered (``check=`` without registration would leave it out of the CLI, docs and tests)."""
    skip = {"steps"}
    modules = {a.module.rsplit(".", 1)[1] for a in R.registered()}
    for path in sorted((ROOT / "la_graph" / "algorithms").glob("[!_]*.py")):
        if path.stem not in skip:
            assert path.stem in modules, f"{path.name} registers no algorithm (@algorithm)"
    certified = {n for n in dir(lg) if getattr(getattr(lg, n), "certified", None)}
    assert certified == {a.name for a in R.registered() if a.checker is not None}


def test_checkers_are_the_ones_check_true_runs():
    """``checker=`` names what ``check=True`` runs; an algorithm registered without one takes no ``check=``."""
    for a in R.registered():
        if a.checker is None:
            assert a.name not in _certify._SPECS, f"{a.name} is certified: name its checker in the registration"
            continue
        assert a.checker == _certify.checker_of(a.name)[0], a.name
        assert callable(getattr(lg.verify, a.checker)), a.checker


def test_registration_refuses_duplicates():
    with pytest.raises(ValueError, match="registered twice"):
        R.algorithm("bfs")(lg.bfs.__wrapped__)
    def x(G):
        return G

    with pytest.raises(ValueError, match="la-graph run cc"):
        R.algorithm("x", cli=R.Cli("cc", "again"))(x)
    with pytest.raises(ValueError, match="on 'x'"):
        R.algorithm("y")(x)
    with pytest.raises(ValueError, match="not options"):
        R.Cli("x", "help", options=("colour",))
    assert "x" not in R.REGISTRY


# ---------------------------------------------------------------------- the command line
def test_cli_subcommands_are_the_registered_ones():
    assert set(cli.ALGORITHMS) == set(R.cli_commands())
    assert set(cli._RUNNERS) <= set(cli.ALGORITHMS)
    assert set(R.RUN_OPTIONS) <= set(vars(cli._parser().parse_args(["run", "cc", "karate"])))


def test_plain_runner(tmp_path):
    """An algorithm registered with a Cli but no runner of its own still runs, prints and checks."""
    from types import SimpleNamespace

    a = R.REGISTRY["core_number"]
    G = lg.Graph.from_file(lg.data.path("karate"))
    summary, result, check = cli._plain(a, SimpleNamespace(), G, "cpu")
    assert summary == {"top_vertex": 0, "top_value": 4} and list(result) == ["kcore"]
    check()


def test_readme_and_cli_docs_name_every_algorithm_and_subcommand():
    readme, cli_md = _read("README.md"), _read("docs/cli.md")
    for a in R.registered():
        assert f"`la_graph.{a.name}`" in readme or f"`{a.name}`" in readme, f"README.md lacks {a.name}"
    for name in R.cli_commands():
        assert f"`{name}`" in readme, f"README.md's table of algorithms lacks {name}: run --write"
        assert f"| `{name}` |" in cli_md, f"docs/cli.md lacks {name}"
    mentioned = set(re.findall(r"^ *\| `([\w-]+)` \| `la_graph\.", cli_md, re.M))
    assert mentioned == set(R.cli_commands())


# ---------------------------------------------------------------------- NetworkX
def nx_functions_source():
    """``_la_graph_nx/__init__.py`` with its literal ``FUNCTIONS`` tuple listing the registered ``networkx=`` names."""
    body = "".join(f'    "{name}",\n' for name in R.networkx_functions())
    return re.sub(r"^FUNCTIONS = \(\n.*?^\)", lambda m: "FUNCTIONS = (\n" + body + ")", _read(NX_INFO), count=1,
                  flags=re.S | re.M)


NX_INFO = "_la_graph_nx/__init__.py"


def test_nx_functions_literal_is_current():
    assert nx_functions_source() == _read(NX_INFO), f"{NX_INFO}: FUNCTIONS is stale: run python tests/test_registry.py --write"


def test_networkx_functions_are_the_registered_ones():
    import _la_graph_nx

    assert sorted(_la_graph_nx.FUNCTIONS) == sorted(R.networkx_functions()), \
        "_la_graph_nx.FUNCTIONS must list the registered networkx= names"
    assert len(set(_la_graph_nx.FUNCTIONS)) == len(_la_graph_nx.FUNCTIONS)
    source = "".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "la_graph" / "nx_backend").glob("*.py")))
    for name in R.networkx_functions():
        assert re.search(rf"^def {name}\(", source, re.M), f"la_graph/nx_backend/ does not implement {name}"
    networkx_md = _read("docs/networkx.md")
    for name in R.networkx_functions():
        assert name in networkx_md, f"docs/networkx.md does not mention {name}"


# ---------------------------------------------------------------------- benchmarks
def test_bench_cases_are_the_registered_ones():
    from la_graph.bench import cases

    claimed = {b: a.name for a in R.registered() for b in a.bench}
    assert set(claimed) == set(cases.ALGORITHMS)
    for b, name in claimed.items():
        assert cases.ALGORITHMS[b].function == name, (b, name)


# ---------------------------------------------------------------------- docs pages
def test_every_algorithm_has_its_page():
    """Each registered algorithm has a page and a summary (mkdocs.yml's nav and docs/index.md's list are
    generated from them), and every page under docs/algorithms is an algorithm's."""
    for a in R.registered():
        assert a.page is not None and (DOCS / a.page).exists(), f"{a.name}: no docs page {a.page}"
        assert a.summary, f"{a.name}: register a summary= (docs/index.md's list)"
    pages = {a.page for a in R.registered()}
    assert {f"algorithms/{p.name}" for p in (DOCS / "algorithms").glob("*.md")} == pages


# ---------------------------------------------------------------------- engines
def test_engine_parameter_text_is_the_shared_one():
    """Every public algorithm's ``engine`` parameter reads :data:`ENGINE_DOC` (all four engines)."""
    want = R.ENGINE_DOC
    for a in R.registered():
        doc = inspect.getdoc(a.function)
        assert want in doc, f"{a.name}'s engine parameter is not ENGINE_DOC:\n{doc}"
    assert set(R.ENGINES) == set(lg.engines.ENGINES)


def test_docs_name_every_engine():
    for rel in ("README.md", "docs/engines.md", "docs/index.md", "docs/writing-an-engine.md"):
        text = _read(rel)
        for e in R.ENGINES:
            assert f"`{e}`" in text or f'"{e}"' in text or f"**{e}**" in text, f"{rel} does not name the {e} engine"
    for rel in ["README.md", *(str(p.relative_to(ROOT)) for p in DOCS.glob("*.md"))]:
        text = _read(rel)
        stale = re.search(r"\b(the|la_graph's) (two|three) engines\b|\b([Tt]wo|[Tt]hree) engines ship\b|\b[Bb]oth engines\b"
                          r"|\bpick the CPU or (the )?GPU engine\b", text)
        assert not stale, f"{rel}: {stale.group(0)!r} (there are four engines)"


def _table_methods(text, heading):
    """Backticked identifiers of the ``| group | methods |`` table under ``heading``."""
    section = text.split(heading, 1)[1]
    table = re.search(r"\| group \| methods \|\n\|---\|---\|\n((?:\|.*\n)+)", section).group(1)
    rows = dict(re.findall(r"^\| ([^|]+) \| (.*) \|$", table, re.M))
    return rows, {g: set(re.findall(r"`(\w+)[(`]", r)) for g, r in rows.items()}


def test_primitive_table_is_the_interface():
    """docs/engines.md owns the table of primitives; it lists exactly base.INTERFACE (and the capabilities
    an engine may set); no other page keeps a copy."""
    _, groups = _table_methods(_read("docs/engines.md"), "## The interface")
    capabilities = groups.pop("capabilities")
    listed = set().union(*groups.values())
    assert listed == set(base.INTERFACE)
    public = {n for n in vars(base.Engine) if not n.startswith("_")} - set(base.INTERFACE) - {"name"}
    assert capabilities == public
    for page in DOCS.rglob("*.md"):
        if page.name != "engines.md":
            assert "| group | methods |" not in page.read_text(encoding="utf-8"), f"{page}: link to engines.md"


def test_fused_steps_exist():
    """Each engine's fused steps are steps (a kernel of a step that was renamed would never run)."""
    assert cpu_fused_steps() <= set(steps.STEPS)
    assert gpu_fused_steps() <= set(steps.STEPS)
    assert gpu_fused_steps(), "no @fuses found under la_graph/engines/gpu/fused*"


def test_every_step_is_on_its_algorithms_page():
    """Each step is named on the docs page of an algorithm of its module."""
    pages = {}
    for a in R.registered():
        pages.setdefault(a.module, set()).add(a.page)
    for s in steps.STEPS.values():
        texts = [(DOCS / p).read_text(encoding="utf-8") for p in pages.get(s.__module__, ())]
        assert any(re.search(rf"\b{s.name}\b", t) for t in texts), \
            f"step {s.name} ({s.__module__}) is on none of {sorted(pages.get(s.__module__, ()))}"


def test_step_names_in_the_docs_exist():
    """A step named in backticks where the docs list steps is a step (renamed steps leave no stale names)."""
    text = _read("docs/writing-an-engine.md")
    names = set(re.findall(r"`(\w+)`", text))
    candidates = {n for n in names if re.fullmatch(r"(bfs|scc|msf|sssp|reach|core|fastsv|brandes|pagerank|"
                                                   r"triangle|vertex|component|luby|floyd)_?\w*", n)}
    unknown = candidates - set(steps.STEPS) - set(steps.families()) - {"bfs_fuse_edges", "core_number"}
    assert not unknown, f"docs/writing-an-engine.md names steps that do not exist: {sorted(unknown)}"


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_registry.py --write   (rewrites the generated blocks of the docs)")
    for rel, name in BLOCKS:
        new = render(rel, name)
        if new != _read(rel):
            (ROOT / rel).write_text(new, encoding="utf-8")
            print(f"wrote {rel} ({name})")
    if nx_functions_source() != _read(NX_INFO):
        (ROOT / NX_INFO).write_text(nx_functions_source(), encoding="utf-8")
        print(f"wrote {NX_INFO} (FUNCTIONS)")
