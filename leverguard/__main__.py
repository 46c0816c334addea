"""`python -m leverguard`: the same entry point as the `leverguard` console script."""

from leverguard.entry import main

raise SystemExit(main())
