"""Speed and memory benchmarks: ``python -m benchmarks`` (``--quick`` for a smoke run).

Every figure is the median of several repeats measured in one run; targets are
printed as reached or missed, never asserted by the test suite.  See
``docs/performance.md`` for the figures and how to read them.
"""
