"""What the -g1 line tables that mpicc-wrap adds to a compile without -g change.

1. Code: each C file is compiled by the MPI compiler with and without -g1 at each
   --opt level; the objects must be byte-identical once ``objcopy --strip-debug`` has
   removed the debug sections (and ``objdump -d`` identical).  Prints the counts.
   For clang: ``OMPI_CC=clang-14 ... --cc mpicc.openmpi`` (MPICH: ``MPICH_CC``).
2. Cost: the same compiles alternating without / with -g1, --pairs rounds; the CPU
   time of the compiler processes (median of the per-pair ratios) and the object bytes.

Usage: python benchmarks/line_tables.py [--pairs 9] [--opt=-O0,-O2] [--cc mpicc]
(default files: tests/corpus, tests/hangs, integration/make-project, examples, cclib)
"""

from __future__ import annotations

import argparse
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import MAKE_PROJECT, ROOT

FILES = sorted([*ROOT.glob("tests/corpus/*.c"), *ROOT.glob("tests/hangs/**/*.c"),
                *MAKE_PROJECT.glob("*/*.c"), *ROOT.glob("examples/*.c"),
                *ROOT.glob("cclib/*.c")])
# clang's .llvm_addrsig lists symbol indices, which GNU objcopy leaves stale when it
# removes the debug sections' symbols: not code, dropped from the comparison.
STRIP = ["--strip-debug", "--remove-section=.llvm_addrsig"]
INCLUDES = [f"-I{MAKE_PROJECT / 'include'}", f"-I{ROOT / 'cclib'}"]


def compile_one(cc: list[str], flags: list[str], src: Path, out: Path) -> None:
    subprocess.run([*cc, *INCLUDES, *flags, "-c", str(src), "-o", str(out)], check=True,
                   stderr=subprocess.DEVNULL)


def _tool(cmd: list[str]) -> bytes:
    return subprocess.run(cmd, check=True, capture_output=True).stdout


def same_code(cc: list[str], opt: str, tmp: Path) -> tuple[int, int, list[str]]:
    """(objects identical after --strip-debug, disassemblies identical, differing)."""
    stripped = disasm = 0
    differ = []
    for k, src in enumerate(FILES):
        objs = [tmp / f"{k}.{tag}.o" for tag in ("plain", "g1")]
        compile_one(cc, [opt], src, objs[0])
        compile_one(cc, [opt, "-g1"], src, objs[1])
        code = [_tool(["objdump", "-d", str(o)]).split(b"\n", 2)[2] for o in objs]
        for o in objs:
            subprocess.run(["objcopy", *STRIP, str(o), str(o) + ".s"], check=True)
        same = Path(str(objs[0]) + ".s").read_bytes() == Path(str(objs[1]) + ".s").read_bytes()
        stripped += same
        disasm += code[0] == code[1]
        if not same or code[0] != code[1]:
            differ.append(str(src.relative_to(ROOT)))
    return stripped, disasm, differ


def cost(cc: list[str], opt: str, pairs: int, tmp: Path) -> str:
    cpu: dict[str, list[float]] = {"": [], "-g1": []}
    size: dict[str, int] = {}
    for _ in range(pairs):
        for g in cpu:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            total = 0
            for k, src in enumerate(FILES):
                out = tmp / f"{k}{g}.o"
                compile_one(cc, [opt, *([g] if g else [])], src, out)
                total += out.stat().st_size
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[g].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            size[g] = total
    ratios = [b / a for a, b in zip(cpu[""], cpu["-g1"], strict=True)]
    return (f"CPU s median {statistics.median(cpu['']):.2f} -> "
            f"{statistics.median(cpu['-g1']):.2f}, median pair ratio "
            f"{statistics.median(ratios):.3f} (range {min(ratios):.2f}-{max(ratios):.2f}); "
            f"object bytes {size['']} -> {size['-g1']} ({size['-g1'] / size['']:.2f}x)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=9)
    ap.add_argument("--opt", default="-O0,-O2", help="levels, comma-separated (--opt=-O3)")
    ap.add_argument("--cc", default="mpicc", help="MPI compiler command")
    args = ap.parse_args()
    cc = shlex.split(args.cc)
    print(f"{len(FILES)} C files, {args.cc}")
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        for opt in args.opt.split(","):
            stripped, disasm, differ = same_code(cc, opt, tmp)
            print(f"{opt}: identical after --strip-debug {stripped}/{len(FILES)}, "
                  f"objdump -d identical {disasm}/{len(FILES)}"
                  + (f"; differ: {' '.join(differ[:5])}" if differ else ""))
            if args.pairs:
                print(f"{opt}: {cost(cc, opt, args.pairs, tmp)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
