"""C and Python source text: decoding, the preprocessor's conditionals and expressions, environment reads and flags."""
