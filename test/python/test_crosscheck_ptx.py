"""The PTX reading of crosscheck/ptx_compare.py (no TS needed): markers cut
brackets, barrier instructions are normalized with their issuing threads
and immediates, and spelling-only differences compare equal."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "crosscheck"))

import ptx_compare as P  # noqa: E402

PTX = """
\tmov.b32 \t%r15, 4096;
\telect.sync \t%r8|%p2, -1;
\tmbarrier.init.shared.b64 \t[%r1], %r9;
\t// begin inline asm
\t// XMARK 0
\t// end inline asm
\tmbarrier.try_wait.parity.shared.b64 P1, [%r5], 1, 10000000;
\t@P1 bra.uni DONE;
\telect.sync \t%r14|%p9, -1;
\t@%p10 bra \t$L__BB0_10;
\tmbarrier.arrive.expect_tx.shared.b64 %rd2, [%r1], %r15;
\t// XMARK 1
\tsetp.ne.b32 \t%p8, %r12, 0;
\t@%p8 bra \t$L__BB0_13;
\tmbarrier.arrive.shared.b64 %rd1, [%r5];
"""


def test_markers_cut_brackets():
    segs = P.segments(PTX)
    assert list(segs) == ["init", 0, 1]
    assert any(op.startswith("mbarrier.init") for _, op, _, _ in segs["init"])


def test_summary_reads_issuers_and_immediates():
    segs = P.segments(PTX)
    acquire = P.summarize(segs[0])
    assert acquire["mbarrier.try_wait.parity.shared.b64 parity=1 [all]"] == 1
    # The register holding the byte count is resolved from its mov.
    assert acquire["mbarrier.arrive.expect_tx.shared.b64 tx=4096 [elect]"] == 1
    release = P.summarize(segs[1])
    # No count operand: the default count 1; behind a conditional branch.
    assert release == {"mbarrier.arrive.shared.b64 count=1 [cond]": 1}


def test_spelling_differences_compare_equal():
    a = {"mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 parity=0 [all]": 1}
    b = {"mbarrier.try_wait.parity.shared.b64 parity=0 [all]": 1}
    only_a, only_b = P.compare(a, b)
    assert not only_a and not only_b


def test_every_case_builds_a_description_with_labels():
    for ptype, topo, variant in P.CASES:
        desc, labels = P.build_case(ptype, topo, variant)
        marks = [s["id"] for t in desc["tasks"] for s in t["loop"]["body"]
                 if s.get("op") == "marker"]
        assert len(marks) == len(set(marks))
        assert set(labels) <= set(marks)
