"""The array engine: input checks, n-gram ids and counts, the reference index, LCS kernels."""
