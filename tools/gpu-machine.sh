# Source this at the start of a command on a bare GPU machine that has CuPy but not
# la_graph's CPU dependencies: `. tools/gpu-machine.sh` from the checkout's root.
#
# It installs the wheels in .whl/ (downloaded beforehand where pip can reach PyPI:
# python-graphblas, suitesparse-graphblas, fast_matrix_market, igraph and their needs)
# into /tmp/site, gives la_graph a dist-info there so its entry points (the `la-graph`
# command, the NetworkX backend) are found, points LA_GRAPH_DATA at .data/ (a copy of
# ../shared/data) and unpacks prebuilt ECL programs from .dev/eclbuild.tgz if present.
# (once per machine: a second source, from a script that another one runs, keeps the installed copy)
if [ ! -f /tmp/site/.la_graph_wheels ]; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || return 1
    : > /tmp/site/.la_graph_wheels
fi
d=/tmp/site/la_graph-0.1.0.dist-info
mkdir -p "$d"
printf 'Metadata-Version: 2.1\nName: la_graph\nVersion: 0.1.0\n' > "$d/METADATA"
printf '[console_scripts]\nla-graph = la_graph.cli:main\n\n[networkx.backends]\nla_graph = la_graph.nx_backend\n\n[networkx.backend_info]\nla_graph = _la_graph_nx:get_info\n' > "$d/entry_points.txt"
: > "$d/RECORD"
export PYTHONPATH=/tmp/site:$PWD LA_GRAPH_DATA=$PWD/.data LA_GRAPH_ECL=${LA_GRAPH_ECL:-$PWD/.ecl} PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
lg() { python3 -c 'import sys; from la_graph.cli import main; sys.exit(main())' "$@"; }
if [ -f .dev/eclbuild.tgz ] && [ ! -f /tmp/site/.la_graph_ecl ]; then tar xzf .dev/eclbuild.tgz && : > /tmp/site/.la_graph_ecl; fi
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
