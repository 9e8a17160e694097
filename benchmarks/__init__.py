"""`make bench`: speed and size figures, printed (never asserted). Run as `python -m benchmarks`."""
