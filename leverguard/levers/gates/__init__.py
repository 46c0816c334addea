"""The gates a change must pass: the default build unchanged (or waived) and the ABI surface."""
