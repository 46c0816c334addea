"""The lever model: a revision scanned into levers (gate sites, injections, reads) and the two sides of a change."""
