"""Stale-tree revert detection: what landing a change would undo of earlier first-parent commits."""
