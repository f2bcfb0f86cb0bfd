"""llvm-mc-15 / llvm-objdump-15 helpers for the ISA corpus generator."""
import os
import re
import subprocess
import tempfile

NOP = 0xBF800000
STRIDE_WORDS = 8  # 32-byte slots: any desync after an invalid word is resynchronised by s_nops
LINE = re.compile(r"^\t(.*?)\s*// ([0-9A-Fa-f]+): ([0-9A-F ]+?)( <.*>)?$")


def objdump_words(cands, mcpu="gfx906"):
    """Disassembles each candidate (a list of 32-bit words) in its own 32-byte slot.
    Returns, per candidate, (text, size_in_bytes) of the instruction at the slot start."""
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "c.s")
        obj = os.path.join(d, "c.o")
        with open(src, "w") as f:
            f.write(".text\n")
            for words in cands:
                pad = [NOP] * (STRIDE_WORDS - len(words))
                f.write(".long " + ", ".join("0x%08x" % w for w in list(words) + pad) + "\n")
        subprocess.run(["llvm-mc-15", "-arch=amdgcn", "-mcpu=" + mcpu, "-filetype=obj", src,
                        "-o", obj], check=True)
        out = subprocess.run(["llvm-objdump-15", "-d", "--mcpu=" + mcpu, obj], check=True,
                             capture_output=True, text=True).stdout
    at = {}
    for line in out.splitlines():
        m = LINE.match(line)
        if m:
            at[int(m.group(2), 16)] = (m.group(1), 4 * len(m.group(3).split()))
    return [at.get(i * 4 * STRIDE_WORDS, (None, 0)) for i in range(len(cands))]


def assemble(lines, mcpu="gfx906"):
    """Assembles `lines`; returns the set of line indices llvm-mc rejects."""
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "a.s")
        with open(src, "w") as f:
            f.write("\n".join(lines) + "\n")
        r = subprocess.run(["llvm-mc-15", "-arch=amdgcn", "-mcpu=" + mcpu, "-filetype=obj", src,
                            "-o", os.path.join(d, "a.o")], capture_output=True, text=True)
    bad = set()
    for m in re.finditer(r"a\.s:(\d+):\d+: error", r.stderr):
        bad.add(int(m.group(1)) - 1)
    return bad


def encode(lines, mcpu="gfx906"):
    """Encodings llvm-mc gives each line (None for rejected lines)."""
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "a.s")
        with open(src, "w") as f:
            f.write("\n".join(lines) + "\n")
        r = subprocess.run(["llvm-mc-15", "-arch=amdgcn", "-mcpu=" + mcpu, "-show-encoding", src],
                           capture_output=True, text=True)
    encs = []
    for line in r.stdout.splitlines():
        m = re.search(r"encoding: \[(.*)\]", line)
        if m:
            encs.append(bytes(int(b, 16) for b in m.group(1).split(",")))
    return encs, r.stderr
