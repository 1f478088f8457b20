"""`cudalint verify --run/--report` (cudalint.fidelity): the join of Nsight Compute's source counters with the
predictions, on committed pages of our own programs (tests/data/fidelity: ncu 2025.3 on an H200, 2026-12-06;
the programs are several.cu and fixtures/shared/template_instances.cu)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cudalint import fidelity
from cudalint.fidelity import (FidelityError, Launch, Measured, Predicted, attach_launches, compare_pages, instances,
                               kernel_label, load_pages, measured, parse_launch_page, parse_source_page, same_files,
                               summary, verdict)

DATA = Path(__file__).parent / "data" / "fidelity"
ROOT = Path(__file__).parent.parent


def pages(name):
    return (DATA / f"{name}.source.csv").read_text(), (DATA / f"{name}.raw.csv").read_text()


@pytest.fixture(scope="module")
def several():
    return {(r.kernel, Path(r.file).name, r.line, r.space, r.operation): r
            for r in compare_pages(*pages("several"), paths=[str(DATA / "several.cu")])}


def test_kernel_labels_as_cudalint_writes_them():
    assert kernel_label("void strided<(int)8>(const float *, float *)") == "strided<8>"
    assert kernel_label("void reduceInterleaved<int, (unsigned int)256>(const T1 *, T1 *, unsigned int)") \
        == "reduceInterleaved<int, 256>"
    assert kernel_label("void reduce7<int, (unsigned int)256, (bool)1>(const T1 *, T1 *, unsigned int)") \
        == "reduce7<int, 256, 1>"
    assert kernel_label("scaled(const float *, float *, int)") == "scaled"
    assert kernel_label("void ns::inner::k<float>(float *)") == "k<float>"


def test_source_page_launches_files_and_instructions():
    launches = parse_source_page(pages("several")[0])
    # `scaled` launched three times: three launches; the header helper is a second file of one launch
    assert [la.label for la in launches] == ["scaled"] * 3 + ["twoOnALine", "viaHeader", "tileColumn", "strided<1>",
                                                              "strided<8>"]
    via = launches[4]
    assert sorted(Path(f).name for f in via.files) == ["fidelity_helper.cuh", "several.cu"]
    load = next(i for i in via.instructions if i.operation == "load")
    assert (Path(load.file).name, load.line, load.sass, load.space) == ("fidelity_helper.cuh", 5, "LDG.E", "global")
    assert (load.executed, load.cost, load.ideal) == (1024, 32768, 4096)
    # each SASS row appears twice on the page: counted once
    assert [(i.sass, i.line) for i in launches[3].instructions] == [("LDG.E", 14), ("LDG.E", 14), ("STG.E", 14)]
    tile = launches[5]
    lds = [i for i in tile.instructions if i.space == "shared" and i.operation == "load"]
    assert [(i.sass, i.line, i.executed, i.cost, i.ideal) for i in lds] == [("LDS", 25, 1024, 32768, 1024)]


def test_launch_page_gives_each_launch_its_configuration():
    launches = parse_source_page(pages("several")[0])
    attach_launches(launches, parse_launch_page(pages("several")[1]))
    assert [(la.grid, la.block) for la in launches[:3]] == [("(4096, 1, 1)", "(256, 1, 1)"),
                                                            ("(2048, 1, 1)", "(256, 1, 1)"),
                                                            ("(1366, 1, 1)", "(256, 1, 1)")]
    assert launches[7].grid == "(4096, 1, 1)"   # `void strided<8>` on the raw page, `strided<(int)8>` on the source


def test_launches_of_one_kernel_are_summed_and_listed():
    launches = parse_source_page(pages("several")[0])
    attach_launches(launches, parse_launch_page(pages("several")[1]))
    m = measured(launches)
    key = next(k for k in m if k[0] == "scaled" and k[3:] == ("global", "load"))
    s = m[key]
    # one LDG.E instruction, run by three launches
    assert (s.requests, s.cost, s.ideal, s.sass) == (60075, 240299, 240299, {"LDG.E": 1})
    assert s.launches == ["<<<(4096, 1, 1), (256, 1, 1)>>>", "<<<(2048, 1, 1), (256, 1, 1)>>>",
                          "<<<(1366, 1, 1), (256, 1, 1)>>>"]


def test_two_accesses_on_one_line_are_one_row(several):
    r = several[("twoOnALine", "several.cu", 14, "global", "load")]
    # in[i] (4 sectors) and in[16 * i] (32) per request of 4 ideal: 36 / 8 = 4.5 times the ideal, both sides
    assert (r.predicted, r.measured, r.measured_per_request, r.sass, r.findings, r.verdict) == \
        (4.5, 4.5, 18.0, "LDG.E x2", ["CL101"], "confirmed")
    assert several[("twoOnALine", "several.cu", 14, "global", "store")].verdict == "clean"


def test_header_helper_line_is_joined_at_the_header(several):
    r = several[("viaHeader", "fidelity_helper.cuh", 5, "global", "load")]
    assert (r.predicted, r.measured, r.findings, r.verdict) == (8.0, 8.0, ["CL101"], "confirmed")


def test_template_instances_each_their_own(several):
    assert several[("strided<8>", "several.cu", 31, "global", "load")].verdict == "confirmed"
    one = several[("strided<1>", "several.cu", 31, "global", "load")]
    assert (one.predicted, one.measured, one.findings, one.verdict) == (1.0, 1.0, [], "clean")


def test_shared_conflict_confirmed(several):
    r = several[("tileColumn", "several.cu", 25, "shared", "load")]
    assert (r.predicted, r.measured, r.measured_per_request, r.findings, r.verdict) == \
        (32.0, 32.0, 32.0, ["CL201"], "confirmed")


def test_summary_of_the_program(several):
    assert summary(list(several.values())) == {
        "measured": 14, "predicted": 14, "within_10pct": 14, "wasteful": 4, "flagged_right_size": 4, "missed": 0,
        "missed_unmodelled": 0, "missed_unreported": 0, "flags": 4, "clean_in_hardware": 0, "not_seen": 0}


def test_partly_active_warps_compare_by_their_ideal():
    """reduceInterleaved<double>: late trips of the tree have few active lanes, whose 8-byte accesses need one
    wavefront, not two: the ideal counts the active lanes' bytes (3.29 against 4.16 with a fixed 2)."""
    rows = compare_pages(*pages("template_instances"), paths=[str(ROOT / "fixtures/shared/template_instances.cu")])
    got = {(r.kernel, r.line, r.operation): (r.predicted, r.measured, r.verdict) for r in rows if r.space == "shared"}
    assert got[("reduceInterleaved<double, 256>", 35, "load")] == (4.156, 4.158, "confirmed")
    assert got[("reduceInterleaved<int, 256>", 35, "store")] == (3.92, 3.917, "confirmed")
    assert got[("reduceInterleaved<double, 256>", 39, "load")] == (1.0, 1.0, "clean")


def test_a_kernel_file_takes_the_launch_of_the_file_that_includes_it(tmp_path):
    """Rodinia's nw: needle.cu includes needle_kernel.cu and launches 16-thread blocks; the report names only the
    kernel file, whose picture alone assumes 32 lanes (5 sectors of 4: 1.25 where the hardware gives 1.5)."""
    (tmp_path / "kfile.cu").write_text("__global__ void rows(const int *in, int *out) {\n"
                                       "    out[threadIdx.x] = in[threadIdx.x + 1];\n}\n")
    (tmp_path / "kmain.cu").write_text('#include "kfile.cu"\nint main() {\n    int *a, *b;\n'
                                       "    rows<<<64, 16>>>(a, b);\n}\n")
    cols = ["Instructions Executed", "Avg. Threads Executed", "Address Space", "Access Operation", "Access Size",
            "L2 Theoretical Sectors Global", "L2 Theoretical Sectors Global Ideal"]
    page = "\n".join([f'"File Path","{tmp_path / "kfile.cu"}"', '"Function Name","rows(const int *, int *)"',
                      ",".join(f'"{c}"' for c in ["Line No", "Source", "Address", "Source", *cols]),
                      '"2","out[threadIdx.x] = in[threadIdx.x + 1];","-","-"',
                      '"","","0x10","LDG.E R2, desc[UR4][R2.64]","64","16","Global","Load","32","192","128"'])
    rows = compare_pages(page, "", root=str(tmp_path))
    assert [(r.line, r.operation, r.predicted, r.measured, r.findings,
             r.block_assumed, r.verdict) for r in rows] == [(2, "load", 1.5, 1.5, ["CL102"], "16x1x1", "confirmed")]


def test_verdicts():
    def m(cost, ideal=100.0):
        return Measured("k", "f.cu", 1, "global", "load", requests=25, cost=cost, ideal=ideal)

    def p(per, findings=("CL101",)):
        return Predicted("k", "f.cu", 1, "global", "load", per_request=per, ideal=4.0, findings=list(findings))
    assert verdict(p(16.0), m(400.0)) == "confirmed"
    assert verdict(p(32.0), m(400.0)) == "off by 2x"
    assert verdict(p(16.0), m(105.0)) == "clean in hardware"
    assert verdict(p(4.0, ()), m(400.0)) == "missed"
    assert verdict(p(16.0, ()), m(400.0)) == "missed (predicted, not reported)"
    assert verdict(None, m(400.0)) == "missed (not modelled)"
    assert verdict(p(4.0, ()), m(100.0)) == "clean"
    assert verdict(p(16.0), None) == "not seen in this run"


def test_host_template_instances_match_cudalint_general_picture():
    patterns = {"reduce4<T, 256>": (None, "256"), "reduce7<T, 256, 1>": (None, "256", "1"), "plain": ()}
    assert instances(["reduce4<int, 256>", "reduce4<int, 128>", "reduce7<int, 256, true>", "plain"], patterns) == [
        ("reduce4<int, 256>", "reduce4<T, 256>"), ("reduce7<int, 256, true>", "reduce7<T, 256, 1>")]


def test_files_profiled_elsewhere_match_by_their_tail():
    got = same_files(["/home/me/proj/src/a.cu", "/home/me/proj/include/k.cuh", "/usr/include/x.h"],
                     ["/ci/checkout/src/a.cu", "/ci/checkout/include/k.cuh", "/ci/checkout/other/a.cu"])
    assert got == {"/home/me/proj/src/a.cu": "/ci/checkout/src/a.cu",
                   "/home/me/proj/include/k.cuh": "/ci/checkout/include/k.cuh"}


def test_page_without_line_information_says_how_to_fix_it():
    page = '"Function Name","k(float *)"\n"Line No","Source","Address","Source"\n'
    with pytest.raises(FidelityError, match="rebuild the program with `nvcc -lineinfo`"):
        parse_source_page(page)


def test_page_without_counters_says_how_to_fix_it():
    """A kernel ncu sampled but did not count (seen on Rodinia's srad_v2: warp-stall columns only)."""
    page = ('"File Path","/x/k.cu"\n"Function Name","k(float *)"\n'
            '"Line No","Source","Address","Source","Warp Stall Sampling (All Samples)"\n"5","x","-","-","0"\n')
    with pytest.raises(FidelityError, match=r"no source counters: profile with `ncu --section SourceCounters`"):
        parse_source_page(page)


def test_missing_report_and_missing_ncu_are_one_line_errors(tmp_path):
    with pytest.raises(FidelityError, match="no such report"):
        load_pages(str(tmp_path / "none.source.csv"))
    with pytest.raises(FidelityError, match=r"Nsight Compute not found \(/nonexistent/ncu\)"):
        fidelity.profile("./prog", str(tmp_path / "r.ncu-rep"), ncu="/nonexistent/ncu")


def test_profile_asks_ncu_for_the_first_launch_of_each_instantiation(tmp_path):
    """The command line cudalint gives ncu (a stand-in ncu records it and writes the report)."""
    fake = tmp_path / "ncu"
    fake.write_text("#!/bin/sh\necho \"$@\" > \"$(dirname \"$0\")/argv\"\n"
                    "while [ \"$1\" != -o ]; do shift; done; touch \"$2.ncu-rep\"\n")
    fake.chmod(0o755)
    fidelity.profile("./prog --size '2 3'", str(tmp_path / "r.ncu-rep"), ncu=str(fake))
    assert (tmp_path / "argv").read_text().split() == [
        "--clock-control", "none", "--section", "SourceCounters", "--section", "LaunchStats", "--kernel-name-base",
        "mangled", "-f", "-o", str(tmp_path / "r"), "--kernel-id", ":::1", "--", "./prog", "--size", "2", "3"]


def test_cli_report_text_and_json(tmp_path):
    cmd = [sys.executable, "-m", "cudalint", "verify", "--report", str(DATA / "several.source.csv"),
           str(DATA / "several.cu")]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    line = next(ln for ln in r.stdout.splitlines()
                if ln.startswith("tests/data/fidelity/several.cu:25 ") and "shared" in ln)
    assert line.split() == ["tests/data/fidelity/several.cu:25", "tileColumn", "shared", "load", "LDS", "CL201", "32",
                            "32", "confirmed"]
    assert "14 access lines measured, 14 pictured by cudalint, 14 of them within 10 %; 4 wasteful in hardware, " \
           "4 flagged with the right size, 0 missed (0 not modelled, 0 predicted but not reported)" in r.stdout
    j = subprocess.run(cmd + ["--format", "json"], capture_output=True, text=True, cwd=ROOT)
    data = json.loads(j.stdout)
    assert data["summary"]["flagged_right_size"] == 4 and len(data["rows"]) == 14
    log = tmp_path / "sync.txt"
    log.write_text("========= Barrier error detected. Divergent thread(s) in block.\n"
                   "=========     at tileColumn(const float *, float *)+0x40 in several.cu:24\n"
                   "=========     by thread (0,0,0) in block (0,0,0)\n")
    s = subprocess.run(cmd + ["--synccheck-log", str(log)], capture_output=True, text=True, cwd=ROOT)
    assert ["tests/data/fidelity/several.cu:24", "tileColumn", "barrier", "sync", "-", "-", "-", "1", "missed"] in \
        [ln.split() for ln in s.stdout.splitlines()], s.stdout
    bad = subprocess.run([sys.executable, "-m", "cudalint", "verify", "--report", str(tmp_path / "x.ncu-rep")],
                         capture_output=True, text=True, cwd=ROOT)
    assert (bad.returncode, bad.stderr) == (2, f"cudalint: error: no such report: {tmp_path / 'x.ncu-rep'}\n")


def test_ideal_counts_the_lanes_distinct_bytes():
    """Nsight Compute's ideal for a broadcast is one sector (Rodinia gaussian's `a_cuda[Size*t+t]` beside a
    strided load on one line: 6.6 times the ideal measured, 4.1 with a 4-sector ideal for the broadcast)."""
    from cudalint.analysis.warp import unique_units
    assert unique_units([0] * 32, 4, 32) == 1                    # every lane the same word
    assert unique_units(list(range(0, 128, 4)), 4, 32) == 4      # unit stride
    assert unique_units([0, 0, 8, 8], 8, 32) == 1                # pairs of lanes on one 8-byte element
    assert unique_units([i * 16 for i in range(32)], 16, 128) == 4   # a full warp of 16-byte loads: 4 wavefronts


def test_synccheck_errors_beside_barrier_findings():
    """`--synccheck`: compute-sanitizer's barrier errors (its report format, as tests/test_measured.py parses it)
    joined to the CL301 findings by file name and line."""
    text = """========= COMPUTE-SANITIZER
========= Barrier error detected. Divergent thread(s) in warp.
=========     at halfWarpSync(int *)+0x90 in /elsewhere/divergent_barrier.cu:23
=========     by thread (1,0,0) in block (0,0,0)
========= Barrier error detected. Divergent thread(s) in warp.
=========     at halfWarpSync(int *)+0x90 in /elsewhere/divergent_barrier.cu:23
=========     by thread (2,0,0) in block (0,0,0)
========= Barrier error detected. Divergent thread(s) in block.
=========     at other(int *)+0x40 in /elsewhere/divergent_barrier.cu:99
=========     by thread (0,0,0) in block (0,0,0)
========= ERROR SUMMARY: 3 errors
"""
    rows = compare_pages("", "", paths=[str(ROOT / "fixtures/sync/divergent_barrier.cu")], synccheck=text)
    got = [(r.line, r.findings, r.measured, r.verdict) for r in rows]
    assert got[0] == (23, ["CL301"], 2.0, "confirmed")
    assert [g[0] for g in got if g[3] == "not seen in this run"] == [34, 42, 53, 61, 76, 85, 92]
    assert got[-1] == (99, [], 1.0, "missed")
    s = summary(rows)
    assert (s["barrier_confirmed"], s["barrier_not_seen_in_this_run"], s["barrier_missed"], s["measured"]) == \
        (1, 7, 1, 0)
    assert "barriers (compute-sanitizer synccheck): 1 CL301/CL302 confirmed, 7 not seen in this run, 1 reported " \
           "and not flagged" in fidelity.format_text(rows)


def test_a_page_from_another_checkout_finds_its_files_here(tmp_path):
    """No paths given, the page's absolute paths (/work/main/...) absent: the files under the current folder with the
    same names and path tails are linted (a new user's clone in another folder got an empty table)."""
    import shutil
    here = tmp_path / "clone" / "tests" / "data" / "fidelity"
    here.mkdir(parents=True)
    for f in ("several.cu", "fidelity_helper.cuh"):
        shutil.copy(DATA / f, here / f)
    page = pages("several")[0].replace("/work/main/", "/nowhere/else/")
    rows = compare_pages(page, pages("several")[1], root=str(tmp_path / "clone"))
    assert len(rows) == 14 and sum(r.verdict == "confirmed" for r in rows) == 4
    assert {Path(r.file).parent for r in rows} == {here}


def test_paths_folders_and_wrong_input(tmp_path):
    rows = compare_pages(*pages("several"), paths=[str(DATA)])      # a folder: its .cu and .cuh files
    assert len(rows) == 14
    with pytest.raises(FidelityError, match="path does not exist: nope.cu"):
        compare_pages(*pages("several"), paths=["nope.cu"])
    with pytest.raises(FidelityError, match="not an Nsight Compute source page"):
        compare_pages(pages("several")[1], "", paths=[str(DATA / "several.cu")])   # the raw page given as source
    with pytest.raises(FidelityError, match=r"none of the profiled files \(fidelity_helper.cuh, several.cu\) is "
                                            "among the sources linted"):
        compare_pages(*pages("several"), paths=[str(ROOT / "fixtures/global/aos_soa.cu")])
    with pytest.raises(FidelityError, match="the profiled files .* are not here"):
        compare_pages(pages("several")[0].replace("/work/main/", "/nowhere/"), "", root=str(tmp_path))


def test_command_lines_and_misplaced_options(tmp_path):
    with pytest.raises(FidelityError, match="cannot split the command"):
        fidelity.split_command("./a 'unterminated")
    with pytest.raises(FidelityError, match="--run needs a command"):
        fidelity.split_command("  ")

    def cli(*argv):
        r = subprocess.run([sys.executable, "-m", "cudalint", "verify", *argv], capture_output=True, text=True,
                           cwd=ROOT)
        return r.returncode, r.stderr
    assert cli("--run", "") == (2, "cudalint: error: --run needs a command: the program to profile and its "
                                   "arguments\n")
    assert cli("--report", str(DATA / "several.source.csv"), "--kernel", "x") == \
        (2, "cudalint: error: --kernel goes with --run\n")
    assert cli("--run", "./x", "--synccheck-log", "f.txt") == \
        (2, "cudalint: error: --synccheck-log goes with --report\n")
