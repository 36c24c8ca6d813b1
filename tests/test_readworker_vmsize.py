"""pbem.engine.readworker._vm_size: the address-space size the memory budget is counted from is
the VmSize the kernel reports in /proc/self/status (proc(5): statm's first field is the same
figure, in pages)."""

from __future__ import annotations

import sys

import pytest

from pbem.engine.readworker import _vm_size


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux's")
def test_the_size_is_the_status_files_vmsize():
    for _ in range(3):
        with open("/proc/self/status") as f:
            expected = next(int(line.split()[1]) * 1024 for line in f
                            if line.startswith("VmSize:"))
        got = _vm_size()
        # the two reads are a few calls apart: the heap may move by a page or so
        assert abs(got - expected) <= 1 << 20, (got, expected)
