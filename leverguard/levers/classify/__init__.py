"""Classification: each lever's class from facts (injections, geometry, the ledger, history) with its evidence."""
