"""The Pralaya tests, one file per role (see docs/rules/pralaya.md for the rules they check)."""
