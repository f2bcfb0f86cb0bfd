#!/usr/bin/env python3
"""Generates the llvm-objdump comparison corpus (corpus_generated.s) for gfx906.

Every opcode llvm-objdump-15 knows for gfx906 (found by enumerating each encoding family, see
enum.py) gets several encodings with randomised operand fields (inline constants, literals, SGPR /
VGPR / special registers, abs/neg/clamp/omod, op_sel, offsets, cache flags), and the VALU families
also get sweeps of every DPP control and SDWA select. llvm-objdump-15 prints each encoding; the
lines llvm-mc-15 assembles back form the corpus. The test then assembles the corpus and compares
llvm-objdump-15's listing with vgpu's disassembler line by line.

Usage: gen_corpus.py OUT.s   (deterministic: fixed seed)
"""
import random
import sys

from opcodes import enumerate_ops
from oracle import assemble, objdump_words

R = random.Random(906)

SPECIAL = [102, 103, 104, 105, 106, 107, 124, 126, 127]
TTMP = list(range(108, 124))
INTS = list(range(128, 209))
FLOATS = list(range(240, 249))
OTHER = [235, 236, 237, 238, 239, 251, 252, 253]
LITERALS = [0x12345678, 0x3f800000, 0x40490fdb, 0xffff8000, 0x00008000, 0x3c00, 0x7fc00000,
            0xbf000000, 0x80000000, 0x3e22f983, 0x3118, 0x0000ffff, 0x41, 0xfffffff0, 0xc400]


def sgpr(even=False, count=1):
    r = R.choice([R.randrange(0, 102 - count), R.choice(SPECIAL), R.choice(TTMP)])
    if even or count > 1:
        r &= ~1
    return r


def ssrc(allow_literal=True):
    k = R.random()
    if k < 0.35:
        return R.randrange(0, 102)
    if k < 0.45:
        return R.choice(SPECIAL + TTMP)
    if k < 0.65:
        return R.choice(INTS)
    if k < 0.8:
        return R.choice(FLOATS)
    if k < 0.85:
        return R.choice(OTHER)
    return 255 if allow_literal else R.choice(INTS)


def vsrc(allow_literal=True, vgpr_bias=0.5):
    if R.random() < vgpr_bias:
        return 256 + R.randrange(0, 256)
    return ssrc(allow_literal)


def lit():
    return R.choice(LITERALS) if R.random() < 0.7 else R.getrandbits(32)


def bits(n):
    return R.getrandbits(n)


def with_literal(words, codes):
    if 255 in codes:
        return words + [lit()]
    return words


# ---- per-family random encoders: f(opcode) -> list of words ----------------------------------
def sop2(o):
    a, b = ssrc(), ssrc()
    if a == 255 and b == 255:
        b = 1
    return with_literal([(2 << 30) | (o << 23) | (sgpr() << 16) | (b << 8) | a], [a, b])


def sopk(o):
    w = [(0xb << 28) | (o << 23) | (sgpr() << 16) | R.choice([bits(16), bits(6), R.randrange(0, 64) | (R.randrange(0, 32) << 6) | (R.randrange(0, 32) << 11)])]
    if o == 0x14:
        w.append(lit())
    return w


def sop1(o):
    a = ssrc()
    return with_literal([(0x17d << 23) | (sgpr() << 16) | (o << 8) | a], [a])


def sopc(o):
    a, b = ssrc(), ssrc()
    if o == 0x11:
        b = R.randrange(0, 16)
    if a == 255 and b == 255:
        b = 2
    return with_literal([(0x17e << 23) | (o << 16) | (b << 8) | a], [a, b])


def sopp(o):
    imm = R.choice([bits(16), bits(4), bits(8), R.randrange(0, 16) | (R.randrange(0, 8) << 4) | (R.randrange(0, 16) << 8),
                    R.randrange(0, 11) | (R.randrange(0, 8) << 4) | (R.randrange(0, 4) << 8), 15 | (R.randrange(0, 5) << 4)])
    return [(0x17f << 23) | (o << 16) | imm]


def smem(o):
    imm = R.random() < 0.7
    soe = R.random() < 0.2
    w0 = (0x30 << 26) | (o << 18) | (imm << 17) | (bits(1) << 16) | (soe << 14) | (sgpr(count=2) << 6) | (R.randrange(0, 51) & 0x3f)
    if R.random() < 0.1:
        w0 |= 1 << 15  # nv
    off = R.choice([bits(21), bits(8), bits(20), 0x1ffffc]) if imm else R.choice([R.randrange(0, 102), 124])
    return [w0, off | (R.randrange(0, 102) << 25 if soe else 0)]


def vop2(o):
    a = vsrc()
    w = [(o << 25) | (R.randrange(0, 256) << 17) | (R.randrange(0, 256) << 9) | a]
    if o in (0x17, 0x18, 0x24, 0x25):
        w.append(lit())
    return with_literal(w, [a]) if a == 255 and o not in (0x17, 0x18, 0x24, 0x25) else w


def vop1(o):
    a = vsrc()
    return with_literal([(0x3f << 25) | (R.randrange(0, 256) << 17) | (o << 9) | a], [a])


def vopc(o):
    a = vsrc()
    return with_literal([(0x3e << 25) | (o << 17) | (R.randrange(0, 256) << 9) | a], [a])


def vop3(o):
    s = [vsrc(allow_literal=False, vgpr_bias=0.6) for _ in range(3)]
    w0 = (0x34 << 26) | (o << 16) | R.randrange(0, 256)
    w0 |= (bits(3) if R.random() < 0.3 else 0) << 8  # abs (or sdst low bits for VOP3B)
    w0 |= (bits(4) if R.random() < 0.3 else 0) << 11  # op_sel
    if R.random() < 0.2:
        w0 |= 1 << 15  # clamp
    if R.random() < 0.25:
        w0 = (w0 & ~(0x7f << 8)) | (sgpr(count=2) << 8)  # VOP3B sdst
    w1 = s[0] | (s[1] << 9) | (s[2] << 18)
    if R.random() < 0.2:
        w1 |= bits(2) << 27  # omod
    if R.random() < 0.3:
        w1 |= bits(3) << 29  # neg
    return [w0, w1]


def vop3p(o):
    s = [vsrc(allow_literal=False, vgpr_bias=0.7) for _ in range(3)]
    w0 = (0x1a7 << 23) | (o << 16) | R.randrange(0, 256) | (bits(3) << 8 if R.random() < 0.3 else 0) | (bits(3) << 11) | (bits(1) << 14) | (bits(1) << 15 if R.random() < 0.2 else 0)
    w1 = s[0] | (s[1] << 9) | (s[2] << 18) | (bits(2) << 27) | ((bits(3) if R.random() < 0.3 else 0) << 29)
    return [w0, w1]


def vintrp(o):
    return [(0x35 << 26) | (R.randrange(0, 256) << 18) | (o << 16) | (R.randrange(0, 33) << 10) | (bits(2) << 8) | R.randrange(0, 256 if o != 2 else 3)]


def ds(o):
    w0 = (0x36 << 26) | (o << 17) | (bits(16) if R.random() < 0.7 else 0) | ((R.random() < 0.15) << 16)
    regs = [R.randrange(0, 256) for _ in range(4)]
    return [w0, regs[0] | (regs[1] << 8) | (regs[2] << 16) | (regs[3] << 24)]


def dsvariants(o):
    # DS encodings need the unused register fields zero: try the common layouts.
    out = []
    for mask in (0xffffffff, 0x00ffffff, 0x0000ffff, 0x000000ff, 0xff0000ff, 0xff00ffff, 0xffff00ff, 0xff000000, 0):
        w = ds(o)
        out.append([w[0], w[1] & mask])
    return out


def gds_only_variants(o, rng):
    # Opcodes that exist only with gds=1 (ds_gws_*, ds_ordered_count): the DS layouts with the
    # gds bit set, from their own random stream so that the rest of the corpus stays as it was.
    out = []
    for mask in (0xffffffff, 0x00ffffff, 0x0000ffff, 0x000000ff, 0xff0000ff, 0xff00ffff, 0xffff00ff, 0xff000000, 0):
        w0 = (0x36 << 26) | (o << 17) | (1 << 16) | (rng.randrange(0, 1 << 16) if rng.random() < 0.7 else 0)
        out.append([w0, rng.randrange(0, 1 << 32) & mask])
    return out


def flat(o, seg):
    w0 = (0x37 << 26) | (o << 18) | (seg << 14) | (bits(1) << 16) | (bits(1) << 17)
    w0 |= (bits(13) if seg else bits(12)) if R.random() < 0.7 else 0
    saddr = 0 if seg == 0 else (0x7f if R.random() < 0.5 else sgpr(count=2))
    w1 = R.randrange(0, 256) | (R.randrange(0, 256) << 8) | (saddr << 16) | (R.randrange(0, 256) << 24)
    return [w0, w1]


def flatvariants(o, seg):
    out = []
    for mask in (0xffffffff, 0x00ffffff, 0xff7f00ff, 0x007f00ff, 0xff7fffff):
        w = flat(o, seg)
        out.append([w[0], w[1] & mask])
    return out


def mubuf(o, mt=False):
    off = bits(12) if R.random() < 0.6 else 0
    w0 = (0x38 << 26) | (o << 18) | off | (bits(1) << 12) | (bits(1) << 13) | (bits(1) << 14)
    if not mt:
        w0 |= (bits(1) << 17) | ((R.random() < 0.2) << 16)
    soff = R.choice([R.randrange(0, 102), 124, 128, 129, 136, 255 - 63, R.choice(SPECIAL + TTMP), 193])
    w1 = R.randrange(0, 256) | (R.randrange(0, 256) << 8) | (R.randrange(0, 26) << 16) | (soff << 24) | ((R.random() < 0.15) << 23)
    if mt:
        w0 = (0x3a << 26) | (o << 15) | off | (bits(1) << 12) | (bits(1) << 13) | (bits(1) << 14) | (bits(4) << 19) | (bits(3) << 23)
        w1 |= bits(1) << 22
    return [w0, w1]


def mimg(o):
    w0 = (0x3c << 26) | (o << 18) | (R.randrange(1, 16) << 8) | (bits(1) << 12) | (bits(1) << 13) | (bits(1) << 14) | (bits(1) << 15) | (bits(1) << 16) | (bits(1) << 17) | (bits(1) << 25)
    if R.random() < 0.8:
        w0 &= ~((1 << 16) | (1 << 17) | (1 << 15))
    w1 = R.randrange(0, 256) | (R.randrange(0, 256) << 8) | ((R.randrange(0, 25) & ~3) << 16) | ((R.randrange(0, 25) & ~3) << 21) | (bits(1) << 31)
    if R.random() < 0.7:
        w1 &= ~(1 << 31)
    return [w0, w1]


def exp(o):
    w0 = (0x31 << 26) | bits(4) | (R.choice([0, 1, 7, 8, 9, 12, 13, 15, 20, 32, 33, 34]) << 4) | (bits(1) << 10) | (bits(1) << 11) | (bits(1) << 12)
    return [w0, R.getrandbits(32)]


# DPP controls (all legal values) and SDWA fields.
DPP_CTRLS = (list(range(0, 0x100, 7)) + [0xe4, 0x1b, 0x00, 0xff] + list(range(0x101, 0x110)) + list(range(0x111, 0x120)) +
             list(range(0x121, 0x130)) + [0x130, 0x134, 0x138, 0x13c, 0x140, 0x141, 0x142, 0x143])


def dpp_word(src, ctrl=None):
    ctrl = R.choice(DPP_CTRLS) if ctrl is None else ctrl
    return (src & 0xff) | (ctrl << 8) | ((R.random() < 0.3) << 19) | (bits(4) << 20 if R.random() < 0.3 else 0) | (R.randrange(0, 16) << 24) | (R.randrange(0, 16) << 28)


def sdwa_word(vopc_form=False):
    src0 = R.randrange(0, 256)
    s0 = R.random() < 0.2
    w = src0 | (R.randrange(0, 7) << 16) | (bits(1) << 19) | ((bits(2) if R.random() < 0.3 else 0) << 20) | (s0 << 23) | (R.randrange(0, 7) << 24) | (bits(1) << 27) | ((bits(2) if R.random() < 0.3 else 0) << 28) | ((R.random() < 0.2) << 31)
    if s0:
        w = (w & ~0xff) | R.choice([R.randrange(0, 102), 106, 124, 126, 128, 129, 193, 240])
    if vopc_form:
        if R.random() < 0.5:
            w |= (1 << 15) | (sgpr(count=2) << 8)
    else:
        w |= R.randrange(0, 7) << 8 | R.randrange(0, 3) << 11 | ((R.random() < 0.2) << 13) | ((bits(2) if R.random() < 0.2 else 0) << 14)
    return w


def main():
    out_path = sys.argv[1]
    ops = enumerate_ops("gfx906")
    cands = []  # (family, opcode, words)

    def add(fam, o, words):
        cands.append((fam, o, words))

    for (fam, o), (mn, sz, base, text) in sorted(ops.items()):
        if fam == "vop3" and o >= 0x380:
            continue
        if fam in ("ds_gds", "mubuf_lds"):
            continue  # below, after everything else
        n = {"vopc": 4, "vop3": 6, "mimg": 4}.get(fam, 10)
        if fam == "sop2":
            for _ in range(n): add(fam, o, sop2(o))
        elif fam == "sopk":
            for _ in range(n): add(fam, o, sopk(o))
        elif fam == "sop1":
            for _ in range(n): add(fam, o, sop1(o))
        elif fam == "sopc":
            for _ in range(n): add(fam, o, sopc(o))
        elif fam == "sopp":
            for _ in range(n): add(fam, o, sopp(o))
        elif fam == "smem":
            for _ in range(n): add(fam, o, smem(o))
        elif fam in ("vop1", "vop2", "vopc"):
            enc = {"vop1": vop1, "vop2": vop2, "vopc": vopc}[fam]
            for _ in range(n): add(fam, o, enc(o))
            for k in range(3):  # DPP
                w = enc(o)[0] & ~0x1ff | 250
                add(fam, o, [w, dpp_word(R.randrange(0, 256))])
            for k in range(3):  # SDWA
                w = enc(o)[0] & ~0x1ff | 249
                add(fam, o, [w, sdwa_word(fam == "vopc")])
        elif fam == "vop3":
            for _ in range(n): add(fam, o, vop3(o))
            # plain forms without modifiers and with a literal-free constant in each slot
            w = vop3(o)
            add(fam, o, [w[0] & ~(0xff << 8), w[1] & 0x07ffffff])
            # VGPR sources only (constant-bus safe), with and without a zero src2 field
            for k in range(2):
                regs = [256 + R.randrange(0, 250) for _ in range(3)]
                w1 = regs[0] | (regs[1] << 9) | ((regs[2] << 18) if k else 0)
                add(fam, o, [(0x34 << 26) | (o << 16) | R.randrange(0, 250), w1])
        elif fam == "vop3p":
            for _ in range(n): add(fam, o, vop3p(o))
            for k in range(2):
                regs = [256 + R.randrange(0, 250) for _ in range(3)]
                w1 = regs[0] | (regs[1] << 9) | ((regs[2] << 18) if k else 0) | (3 << 27)
                add(fam, o, [(0x1a7 << 23) | (o << 16) | R.randrange(0, 250) | (1 << 14), w1])
        elif fam == "vintrp":
            for _ in range(n): add(fam, o, vintrp(o))
        elif fam == "ds":
            for _ in range(2):
                for w in dsvariants(o): add(fam, o, w)
        elif fam in ("flat", "global", "scratch"):
            seg = {"flat": 0, "scratch": 1, "global": 2}[fam]
            for _ in range(3):
                for w in flatvariants(o, seg): add(fam, o, w)
        elif fam == "mubuf":
            for _ in range(n): add(fam, o, mubuf(o))
        elif fam == "mtbuf":
            for _ in range(n): add(fam, o, mubuf(o, mt=True))
        elif fam == "mimg":
            for _ in range(n): add(fam, o, mimg(o))
        elif fam == "exp":
            for _ in range(20): add(fam, o, exp(o))
    # Every DPP control on a few representative opcodes.
    for o, fam in ((0x01, "vop1"), (0x01, "vop2"), (0x34, "vop2")):
        for ctrl in DPP_CTRLS:
            base = ((0x3f << 25) | (o << 9) | 250) if fam == "vop1" else ((o << 25) | (3 << 9) | 250)
            add(fam, o, [base | (R.randrange(0, 256) << 17), dpp_word(R.randrange(0, 256), ctrl)])
    # Every SDWA select combination on v_add_u32 / v_mov_b32.
    for dst_sel in range(7):
        for src_sel in range(7):
            w1 = R.randrange(0, 256) | (dst_sel << 8) | (R.randrange(0, 3) << 11) | (src_sel << 16) | (bits(1) << 19) | (R.randrange(0, 7) << 24)
            add("vop2", 0x34, [(0x34 << 25) | (5 << 17) | (6 << 9) | 249, w1])
            add("vop1", 0x01, [(0x3f << 25) | (5 << 17) | (1 << 9) | 249, w1 & ~(0xff << 24)])

    gds_rng = random.Random(9061)
    for fam, o in sorted(k for k in ops if k[0] == "ds_gds"):
        for _ in range(2):
            for w in gds_only_variants(o, gds_rng): add("ds", o, w)

    # The LDS-bit forms (issue 17): GLOBAL and SCRATCH loads into the LDS (bit 13; llvm-objdump
    # prints the other opcodes with it as .long, which the filter below drops), MUBUF loads into
    # the LDS (bit 16; mubuf() already sets it on some) and buffer_store_lds_dword.
    lds_rng = random.Random(9062)
    for fam, o in sorted(k for k in ops if k[0] in ("global", "scratch")):
        seg = {"scratch": 1, "global": 2}[fam]
        for _ in range(4):
            w = flat(o, seg)
            w[0] |= 1 << 13
            if lds_rng.random() < 0.5:
                w[1] = (w[1] & ~(0x7f << 16)) | (0x7f << 16)  # no saddr
            add(fam, o, w)
    for fam, o in sorted(k for k in ops if k[0] in ("mubuf", "mubuf_lds")):
        for _ in range(4):
            w = mubuf(o)
            w[0] = (w[0] | (1 << 16)) & ~(lds_rng.getrandbits(2) << 12 if fam == "mubuf_lds" else 0)
            add("mubuf", o, w)

    res = objdump_words([c[2] for c in cands], "gfx906")

    lines, seen, per_op = [], set(), {}
    for (fam, o, words), (text, size) in zip(cands, res):
        if not text or text.startswith(".long") or text in seen:
            continue
        if size != 4 * len(words):
            continue  # e.g. a literal the instruction does not take: keep the test unambiguous
        seen.add(text)
        lines.append(text)
    bad = assemble(lines, "gfx906")
    kept = [l for i, l in enumerate(lines) if i not in bad]
    with open(out_path, "w") as f:
        f.write("// Generated by tools/gen_corpus.py (llvm-objdump-15 text of randomised gfx906 encodings\n")
        f.write("// that llvm-mc-15 assembles back). Do not edit; regenerate.\n")
        for l in kept:
            f.write(l + "\n")
    # gfx900 corpus: the lines gfx900 assembles (no gfx906-only opcodes), so both listings stay
    # on the same instruction boundaries.
    bad900 = assemble(kept, "gfx900")
    kept900 = [l for i, l in enumerate(kept) if i not in bad900]
    with open(out_path.replace(".s", "_gfx900.s"), "w") as f:
        f.write("// Generated by tools/gen_corpus.py: the gfx900-compatible subset of\n")
        f.write("// corpus_generated.s. Do not edit; regenerate.\n")
        for l in kept900:
            f.write(l + "\n")
    print("%d candidates, %d distinct printed, %d assembled (%d for gfx900)" %
          (len(cands), len(lines), len(kept), len(kept900)), file=sys.stderr)


if __name__ == "__main__":
    main()
