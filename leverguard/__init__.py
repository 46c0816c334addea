"""leverguard: a git hygiene and regression guard for teams that land many performance experiments."""

__version__ = "0.2.0.dev0"  # the one place; pyproject.toml reads it (setuptools dynamic version)
