"""The README's Python quick start and docs/python.md's first example run as printed, against
the installed package."""
import re
import subprocess
import sys

from conftest import REPO


def python_blocks(path):
    return re.findall(r"```python\n(.*?)```", path.read_text(), re.S)


def run(code, tmp_path):
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def test_the_readme_python_quick_start_runs_as_pasted_and_prints_what_it_says(tmp_path):
    section = (REPO / "README.md").read_text().split("## Python quick start", 1)[1].split("\n## ", 1)[0]
    code = re.findall(r"```python\n(.*?)```", section, re.S)[0]
    lines = run(code, tmp_path).splitlines()
    assert re.fullmatch(r"random    mean return \d+\.\d\d over seeds 1-20", lines[0])
    assert re.fullmatch(r"heuristic mean return \d+\.\d\d over seeds 1-20", lines[1])
    assert float(lines[1].split()[3]) > float(lines[0].split()[3]) + 5
    assert lines[2] == "(1024, 55) (1024, 11)"
    assert float(lines[3]) > 30


def test_the_docs_page_api_example_runs(tmp_path):
    run(python_blocks(REPO / "docs" / "python.md")[0], tmp_path)


def test_the_python_quick_start_prints_the_node_quick_starts_returns(tmp_path):
    readme = (REPO / "README.md").read_text()
    node_code = re.findall(r"```js\n(.*?)```", readme.split("## Node quick start", 1)[1], re.S)[0]
    node_code = node_code.replace("from 'valley-farm/agents'", f"from '{REPO}/wasm/agents/index.js'").replace(
        "from 'valley-farm'", f"from '{REPO}/wasm/index.js'"
    )
    node = subprocess.run(["node", "--input-type=module", "-e", node_code], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert node.returncode == 0, node.stderr[-2000:]
    section = readme.split("## Python quick start", 1)[1].split("\n## ", 1)[0]
    py = run(re.findall(r"```python\n(.*?)```", section, re.S)[0], tmp_path)
    assert py.splitlines()[:2] == node.stdout.splitlines()[:2]
