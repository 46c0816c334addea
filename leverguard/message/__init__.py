"""The commit-message guard: message parsing as git does it, rules, template (issue #5)."""
