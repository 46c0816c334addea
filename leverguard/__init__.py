"""leverguard: a git hygiene and regression guard for teams that land many performance experiments."""

__version__ = "0.1.0"
