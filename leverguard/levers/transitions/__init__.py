"""What a change did to each lever (transitions) and what it left behind (findings)."""
